import Foundation
import TacitCore
import TacitHTTP

/// The check_url routes, and in dev the virtual phone's "run silent auth" button.
struct SilentRoutes: Sendable {
    let flow: SilentFlow
    let devHandsets: DevSilentCheck?

    func register(_ router: inout RouteTable) {
        let flow = self.flow
        router.add("GET", "/v1/silent/checks/:token") { await Self.respond($0) { try await flow.open($0) } }
        router.add("GET", "/v1/silent/callback") { await Self.respond($0) { try await flow.callback($0) } }
        if let devHandsets {
            router.add("POST", "/v1/dev/handsets/:number/silent-check") { await Self.respond($0) { try await devHandsets.run($0) } }
        }
    }

    /// Thrown problems become problem+json; anything else is the server's fault (503, no internals).
    static func respond(_ request: HTTPRequest, _ handler: (HTTPRequest) async throws -> HTTPResponse) async -> HTTPResponse {
        do { return try await handler(request) }
        catch let problem as APIProblem { return problem.response }
        catch { return APIProblem.unavailable.response }
    }
}
