import Foundation
import Testing
@testable import TacitHTTP

@Suite("libmicrohttpd's messages: every request target masked")
struct ServerLogTargetTests {
    static let number = "99012345671"
    static let token = "cu_d2VsbCBoZWxsbyB0aGVyZQ"

    @Test("an absolute-form target loses its host and path, whatever its scheme", arguments: [
        ("Failed to send data in request for `http://127.0.0.1:8080/v1/dev/handsets/+99012345671/inbox'.",
         "Failed to send data in request for `http://…'."),
        ("request for `https://tacit.example/v1/silent/checks/cu_d2VsbCBoZWxsbyB0aGVyZQ'. Error: reset",
         "request for `https://…'. Error: reset"),
        ("request for http://host/v1/dev/handsets/%2B99012345671/inbox?x=1 failed", "request for http://… failed"),
        ("request for `//host/+99012345671'", "request for `//…'"),
    ])
    func absoluteForm(message: String, logged: String) {
        #expect(ServerLog.maskingPaths(message) == logged)
    }

    @Test("a target that is no path at all is masked when it could be a number or a token", arguments: [
        ("request for `+99012345671/inbox'", "request for `…/inbox'"),
        ("request for `cu_d2VsbCBoZWxsbyB0aGVyZQ'", "request for `…'"),
        ("request for `+９９０１２３４５６７１'", "request for `…'"),
        ("request for `*'. Error: reset", "request for `*'. Error: reset"),
        ("Error processing request (HTTP response code is 505). Closing connection.",
         "Error processing request (HTTP response code is 505). Closing connection."),
    ])
    func bareTargets(message: String, logged: String) {
        #expect(ServerLog.maskingPaths(message) == logged)
    }

    @Test("a real absolute-form request reset before its answer logs a line with no number or token",
          .timeLimit(.minutes(1)), arguments: [
        "http://127.0.0.1/v1/dev/handsets/+\(number)/inbox",
        "http://127.0.0.1/v1/silent/checks/\(token)",
    ])
    func resetAbsoluteFormRequest(target: String) async throws {
        let log = LogWatch()
        let gate = Gate()
        // A body larger than the socket buffers, so writing it after the reset fails for sure.
        let body = [UInt8](repeating: 0x61, count: 4 << 20)
        try await withLiveServer({ $0.errorLog = { log.add($0) } }, handler: { _ in
            await gate.pass()
            return .json(bytes: body)
        }) { server, _ in
            var connection: RawConnection? = try RawConnection(port: server.port)
            try connection?.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            await gate.waitForArrivals(1)
            connection?.abortOnClose()
            connection = nil
            gate.open()
            let line = await log.first { $0.hasPrefix("Failed to send") }
            #expect(line.contains("http://…"))
        }
        for line in log.all {
            #expect(!line.contains(Self.number) && !line.contains(Self.token) && !line.contains("cu_"), "\(line)")
        }
    }
}
