import Foundation
import Testing
import TacitTesting
import TacitHTTP

@Suite("HTTPServer methods and framing")
struct HTTPServerMethodsTests {
    static var routed: HTTPHandler {
        var router = Router()
        router.add("GET", "/thing", { _ in .text("thing body") })
        router.add("GET", "/search", { request in
            .text("q=\(request.query["q"] ?? "-");n=\(request.query["n"] ?? "-")")
        })
        let ready = router
        return { await ready.handle($0) }
    }

    func exchange(_ port: Int, _ raw: String) async throws -> String {
        try await offThePool {
            let connection = try RawConnection(port: port)
            try connection.send(raw)
            return try connection.readToEnd()
        }
    }

    @Test("HEAD answers the GET headers with no body, and the connection stays usable")
    func head() async throws {
        try await withLiveServer(handler: Self.routed) { server, _ in
            let text = try await exchange(server.port,
                "HEAD /thing HTTP/1.1\r\nHost: x\r\n\r\nGET /thing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let responses = text.components(separatedBy: "HTTP/1.1 200")
            #expect(responses.count == 3)
            #expect(!responses[1].contains("thing body"))
            #expect(responses[1].contains("Content-Length: 10"))
            #expect(responses[2].hasSuffix("\r\n\r\nthing body"))
        }
    }

    @Test("an unknown method answers 405 problem+json cleanly", arguments: ["BREW", "PROPFIND"])
    func unknownMethod(method: String) async throws {
        try await withLiveServer(handler: Self.routed) { server, _ in
            let text = try await exchange(server.port, "\(method) /thing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(text.hasPrefix("HTTP/1.1 405"))
            #expect(text.contains("Content-Type: application/problem+json"))
        }
    }

    @Test("OPTIONS and 405 answers carry Allow over the wire")
    func optionsAndNotAllowed() async throws {
        try await withLiveServer(handler: Self.routed) { _, client in
            let options = try await client.send("OPTIONS", "/thing")
            #expect(options.status == 204)
            #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
            let post = try await client.send("POST", "/thing", body: Data("x".utf8))
            #expect(post.status == 405)
            #expect(post.header("Content-Type") == "application/problem+json")
            #expect(post.json["type"] as? String == "method-not-allowed")
        }
    }

    @Test("query values are percent-decoded")
    func queryDecoding() async throws {
        try await withLiveServer(handler: Self.routed) { _, client in
            let reply = try await client.send("GET", "/search?q=a%20b%2Bc&n=5")
            #expect(reply.text == "q=a b+c;n=5")
        }
    }

    @Test("byte bodies always carry Content-Length and no caching header is added")
    func contentLength() async throws {
        try await withLiveServer(handler: Self.routed) { server, _ in
            let text = try await exchange(server.port, "GET /thing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(text.contains("Content-Length: 10\r\n"))
            #expect(!text.lowercased().contains("cache-control"))
            #expect(!text.lowercased().contains("transfer-encoding"))
        }
    }
}
