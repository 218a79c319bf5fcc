import Foundation
import TacitCore
import TacitHTTP

/// The check_url routes, and in dev the virtual phone's "run silent auth" button.
struct SilentRoutes: Sendable {
    let flow: SilentFlow
    let devHandsets: DevSilentCheck?

    /// The check_url hops are open: the sealed, single-use check token is their proof, and
    /// a device following a redirect has no key to send.
    func register(_ router: inout RouteTable) {
        let flow = self.flow, devHandsets = self.devHandsets
        router.add("GET", "/v1/silent/checks/:token", .open, throwing: flow.open)
        router.add("GET", "/v1/silent/callback", .open, throwing: flow.callback)
        // `devHandsets` is nil only without --dev, where the gate answers for the route as for an absent path.
        router.add("POST", "/v1/dev/handsets/:number/silent-check", .devOnly(.write)) { request in
            guard let devHandsets else { throw APIProblem.noSuchRoute }
            return try await devHandsets.run(request)
        }
    }
}
