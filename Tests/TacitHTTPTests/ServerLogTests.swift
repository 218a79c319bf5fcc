import CMicroHTTPD
import Foundation
import Synchronization
import Testing
import TacitTesting
@testable import TacitHTTP

/// Lines a test server logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("libmicrohttpd's messages")
struct ServerLogTests {
    @Test("request paths are cut to their first segment, and that too when it could hold a secret", arguments: [
        ("Failed to send the response headers for the request for `/v1/silent/checks/cu_AbC-9'. Error: reset",
         "Failed to send the response headers for the request for `/v1/…'. Error: reset"),
        ("Failed to send data in request for /v1/dev/handsets/+99012345671/inbox.", "Failed to send data in request for /v1/…"),
        ("for `/+99012345671'", "for `/…'"),
        ("for `/99012345671'", "for `/…'"),
        ("for `/healthz'", "for `/healthz'"),
        ("for `/a-very-long-segment-here/x'", "for `/…/…'"),
        ("Setting TCP/IP option failed", "Setting TCP/IP option failed"),
    ])
    func masksPaths(message: String, logged: String) {
        #expect(ServerLog.maskingPaths(message) == logged)
    }

    @Test("a message naming a request reaches the configured log through the C logger, its path cut short")
    func throughTheShim() {
        let lines = LogLines()
        let core = ServerCore(configuration: HTTPServer.Configuration(port: 0, errorLog: { lines.add($0) }), handler: { _ in .empty() })
        cmhd_log_failed_send(tacitLog, Unmanaged.passUnretained(core).toOpaque(), "/v1/silent/checks/cu_d2VsbCBoZWxsbyB0aGVyZQ")
        #expect(lines.all == ["Failed to send the response headers for the request for `/v1/…'. Error: connection reset"])
    }

    @Test("the daemon's own messages go to the configured log")
    func daemonMessages() async throws {
        let lines = LogLines()
        try await withLiveServer({ $0.errorLog = { lines.add($0) } }, handler: { _ in .empty() }) { server, _ in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /v1/silent/checks/cu_x HTTP/9.9\r\nHost: x\r\n\r\n")
            let reply = try await offThePool { try connection.readToEnd() }
            #expect(reply.hasPrefix("HTTP/1.1 505"))
        }
        #expect(lines.all.contains { $0.hasPrefix("Error processing request (HTTP response code is 505") })
    }
}
