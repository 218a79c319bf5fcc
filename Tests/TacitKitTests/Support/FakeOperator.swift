import Foundation
import Testing
@testable import TacitKit

/// A test server playing both the carrier (the check URL and its redirects)
/// and the Tacit API (code submission and device events).
struct FakeOperator {
    static let requestId = "req-1"
    static let checkPath = "/v1/verifications/req-1/check"
    static let eventsPath = "/v1/verifications/req-1/events"

    let server: TestHTTPServer

    /// `route` answers carrier paths; `checkReplies` answer code submissions in order.
    init(checkReplies: [TestHTTPServer.Reply] = [.respond(200, body: #"{"request_id":"req-1","status":"completed"}"#)],
         route: @escaping @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Reply) throws {
        let checks = ScriptedReplies(checkReplies)
        server = try TestHTTPServer { request in
            switch request.path {
            case Self.checkPath: checks.next()
            case Self.eventsPath: .respond(201)
            default: route(request)
            }
        }
    }

    /// The final carrier answer.
    static func final(requestId: String = requestId, code: String = "9876") -> TestHTTPServer.Reply {
        .respond(200, headers: ["Content-Type": "application/json"], body: #"{"request_id":"\#(requestId)","code":"\#(code)"}"#)
    }

    /// Device event labels the fake received, in order.
    var deviceEvents: [String] {
        server.requests(to: Self.eventsPath).compactMap {
            (try? JSONDecoder().decode(DeviceEvent.self, from: $0.body))?.label
        }
    }

    func run(_ checkPath: String = "/check/abc", transport: any CellularTransport = SocketCellularTransport(sourceAddress: "127.0.0.2"),
             options: SilentAuth.Options = .fast) async -> SilentAuthResult {
        await SilentAuth.run(
            checkURL: server.url(checkPath), requestId: Self.requestId, clientToken: "tok-secret",
            baseURL: server.baseURL, transport: transport, apiTransport: SocketCellularTransport(), options: options)
    }
}

extension SilentAuth.Options {
    static var fast: SilentAuth.Options {
        var options = SilentAuth.Options()
        options.hopTimeout = .seconds(5)
        options.submitRetryDelay = .zero
        return options
    }
}

/// A transport that reports no cellular path and must never be used.
struct NoCellularTransport: CellularTransport {
    var isAvailable: Bool { false }
    func send(_ request: CellularRequest) async throws -> CellularResponse {
        Issue.record("an unavailable transport was used")
        throw CellularTransportError(.unavailable, "no path")
    }
}
