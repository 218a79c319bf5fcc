import Foundation
import Testing
import TacitTesting

@Suite("Timeline device events", .timeLimit(.minutes(1)))
struct TimelineDeviceEventsTests {
    static let body = #"{"label":"device:check_url_opened","outcome":"success","note":"Opened over mobile data.","data":{"network":"cellular","hops":2}}"#

    func post(_ server: TimelineCalls, _ id: String, token: String?, body: String = Self.body) async throws -> TestResponse {
        try await server.call("POST", "/v1/verifications/\(id)/events", json: body,
                              headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test("the verification's own client token stores a device event in the same sequence, with source device")
    func accepted() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, token) = try await server.start("+99012345670")
            let before = try await server.events(id).count
            let reply = try await post(server, id, token: token)
            #expect(reply.status == 201)
            #expect(reply.json["seq"] as? Int == before + 1)
            let stored = try #require(try await server.events(id, after: before).first)
            #expect(stored["source"] as? String == "device")
            #expect(stored["label"] as? String == "device:check_url_opened")
            #expect(stored["channel"] as? String == "sms")
            #expect((stored["data"] as? [String: Any])?["hops"] as? Int == 2)
            let state = try await server.call("GET", "/v1/verifications/\(id)").json
            #expect(state["status"] as? String == "pending")
        }
    }

    @Test("no token or a wrong one is 401; another pending verification's token is 403")
    func authorization() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, _) = try await server.start("+99012345670")
            let (_, otherToken) = try await server.start("+99012345672")
            #expect(try await post(server, id, token: nil).status == 401)
            #expect(try await post(server, id, token: "ct_not-a-real-token-at-all").status == 401)
            let foreign = try await post(server, id, token: otherToken)
            #expect(foreign.status == 403)
            #expect(foreign.json["type"] as? String == "forbidden")
            #expect(try await server.events(id).allSatisfy { $0["source"] as? String != "device" })
        }
    }

    @Test("a finished verification's token is refused with 403")
    func finished() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, token) = try await server.start("+99012345670")
            try await server.call("DELETE", "/v1/verifications/\(id)")
            let reply = try await post(server, id, token: token)
            #expect(reply.status == 403)
            #expect(try await server.events(id).last?["label"] as? String == "verification:summary")
        }
    }

    @Test("bad bodies are refused without storing anything", arguments: [
        ("{not json", 400),
        (#"{"label":"sms:completed"}"#, 422),
        (#"{"label":"device:Bad-Name"}"#, 422),
        (#"{"label":"device:"}"#, 422),
        (#"{"label":"device:x","outcome":"great"}"#, 422),
        (#"{"label":"device:x","note":"\#(String(repeating: "a", count: 501))"}"#, 422),
        (#"{"label":"device:x","data":{"nested":{"a":1}}}"#, 422),
        (#"{"label":"device:x","data":{"big":"\#(String(repeating: "b", count: 4_100))"}}"#, 422),
        (#"{"label":"device:x","extra":true}"#, 422),
        (#"{"label":"device:x","data":{"k":"\#(String(repeating: "c", count: 70_000))"}}"#, 413),
    ])
    func validation(body: String, status: Int) async throws {
        // The body limit is the HTTP layer's, before any handler runs: that case goes over the wire.
        try await TimelineCalls.test(status == 413 ? .live : .inProcess) { server in
            let (id, token) = try await server.start("+99012345670")
            let before = try await server.events(id).count
            #expect(try await post(server, id, token: token, body: body).status == status)
            #expect(try await server.events(id).count == before)
        }
    }

    @Test("what a device types is redacted when stored: numbers, codes and tokens")
    func redacted() async throws {
        try await TimelineCalls.test(.inProcess) { server in
            let (id, token) = try await server.start("+99012345670")
            let body = #"{"label":"device:typed","note":"user typed 99012345670 and 123456 with \#(token)","data":{"number":99012345670,"code":"654321"}}"#
            #expect(try await post(server, id, token: token, body: body).status == 201)
            let text = try await server.call("GET", "/v1/verifications/\(id)/events").text
            for secret in ["99012345670", "123456", "654321", token] { #expect(!text.contains(secret)) }
            #expect(text.contains("5670"))
        }
    }
}
