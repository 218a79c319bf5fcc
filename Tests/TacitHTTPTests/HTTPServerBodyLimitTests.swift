import Foundation
import Testing
import TacitTesting
import TacitHTTP
import Synchronization

@Suite("HTTPServer request body limits")
struct HTTPServerBodyLimitTests {
    /// Counts handler calls so a test can prove an oversized request never reached it.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
        var handler: HTTPHandler {
            { [self] request in
                count.add(1, ordering: .relaxed)
                return .text("got \(request.body.count)")
            }
        }
    }

    @Test("a body at the limit is accepted", arguments: [0, 1, 1_024])
    func acceptsAtLimit(limit: Int) async throws {
        try await withLiveServer({ $0.maxBodyBytes = limit }, handler: Calls().handler) { _, client in
            let reply = try await client.send("POST", "/", body: Data(repeating: 65, count: limit))
            #expect(reply.status == 200)
            #expect(reply.text == "got \(limit)")
        }
    }

    @Test("a body over the limit by Content-Length answers 413 problem+json without calling the handler",
          arguments: [1_025, 1 << 20])
    func rejectsByLength(size: Int) async throws {
        let calls = Calls()
        try await withLiveServer({ $0.maxBodyBytes = 1_024 }, handler: calls.handler) { _, client in
            let reply = try await client.send("POST", "/upload", body: Data(repeating: 65, count: size))
            #expect(reply.status == 413)
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(reply.json["type"] as? String == "payload-too-large")
            #expect(reply.json["status"] as? Int == 413)
            #expect(reply.json["title"] is String && reply.json["detail"] is String)
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a chunked upload that streams past the limit answers 413 without calling the handler")
    func rejectsChunkedStream() async throws {
        let calls = Calls()
        try await withLiveServer({ $0.maxBodyBytes = 100 }, handler: calls.handler) { server, _ in
            let port = server.port
            let text = try await offThePool {
                let connection = try RawConnection(port: port)
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<4 { try connection.send("40\r\n" + String(repeating: "a", count: 64) + "\r\n") }
                try connection.send("0\r\n\r\n")
                return try connection.read(until: "}")
            }
            #expect(text.hasPrefix("HTTP/1.1 413"))
            #expect(text.contains("\"type\":\"payload-too-large\""))
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a declared body far past the limit answers 413 before the body is sent")
    func rejectsHugeDeclaredBodyEarly() async throws {
        let calls = Calls()
        try await withLiveServer({ $0.maxBodyBytes = 1_024 }, handler: calls.handler) { server, _ in
            let port = server.port
            let text = try await offThePool {
                let connection = try RawConnection(port: port)
                try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nabc")
                return try connection.read(until: "}")
            }
            #expect(text.hasPrefix("HTTP/1.1 413"))
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }
}
