import Foundation
import Testing
@testable import TacitHTTP

@Suite("HTTPServer basics over loopback")
struct HTTPServerBasicsTests {
    static let echo: HTTPHandler = { request in
        let summary = [
            "method": request.method, "path": request.path,
            "after": request.query["after"] ?? "-", "agent": request.header("X-Test") ?? "-",
            "body": String(decoding: request.body, as: UTF8.self), "remote": request.remoteAddress,
        ]
        return .json(summary)
    }

    @Test("a GET reaches the handler with its decoded path, query, headers and peer address")
    func echoesRequest() async throws {
        try await withLiveServer(handler: Self.echo) { _, client in
            let reply = try await client.send("GET", "/v1/dev/handsets/%2B99012345670/inbox?after=5", headers: ["X-Test": "yes"])
            #expect(reply.status == 200)
            #expect(reply.json["path"] as? String == "/v1/dev/handsets/+99012345670/inbox")
            #expect(reply.json["after"] as? String == "5")
            #expect(reply.json["agent"] as? String == "yes")
            #expect(reply.json["remote"] as? String == "127.0.0.1")
            #expect(reply.header("Content-Length") == String(reply.body.count))
        }
    }

    @Test("a POST body arrives intact")
    func postsBody() async throws {
        try await withLiveServer(handler: Self.echo) { _, client in
            let reply = try await client.send("POST", "/things", body: Data("{\"code\":\"1234\"}".utf8))
            #expect(reply.json["method"] as? String == "POST")
            #expect(reply.json["body"] as? String == "{\"code\":\"1234\"}")
        }
    }

    @Test("a sanity load: 8 clients making 50 requests each all get their own answers")
    func sanityLoad() async throws {
        try await withLiveServer(handler: Self.echo) { _, client in
            let correct = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var ok = 0
                        for index in 0..<50 {
                            let reply = try await client.send("GET", "/w\(worker)/\(index)")
                            if reply.json["path"] as? String == "/w\(worker)/\(index)" { ok += 1 }
                        }
                        return ok
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(correct == 400)
        }
    }
}
