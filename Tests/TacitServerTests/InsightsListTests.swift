import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitTesting

@Suite("Insights: the list of verifications")
struct InsightsListTests {
    static let numbers = ["+447400123456", "+447400123457", "+33612345678", "+447400123458"]

    /// The ids of a list answer, in order.
    static func ids(_ reply: TestResponse) -> [String] {
        (reply["verifications"] as? [[String: Any]] ?? []).compactMap { $0["request_id"] as? String }
    }

    @Test("each filter keeps only its verifications, newest first")
    func filters() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("424242") }) { server, client in
            var ids: [String] = []
            for (index, number) in Self.numbers.enumerated() {
                let channels = index == 1 ? ["voice"] : ["sms", "voice"]
                let (id, reply) = try await client.start(number, channels: channels, extra: ["client_ref": "ref-\(index)"])
                #expect(reply.status == 202)
                ids.append(id)
                server.clock.advance(by: 5)
            }
            #expect(try await client.post("/v1/verifications/\(ids[0])/check", json: ["code": "424242"]).status == 200)
            #expect(Self.ids(try await client.get("/v1/verifications")) == ids.reversed())
            #expect(Self.ids(try await client.get("/v1/verifications?status=completed")) == [ids[0]])
            #expect(Self.ids(try await client.get("/v1/verifications?status=pending")) == [ids[3], ids[2], ids[1]])
            #expect(Self.ids(try await client.get("/v1/verifications?channel=voice")) == [ids[1]])
            #expect(Self.ids(try await client.get("/v1/verifications?country=FR")) == [ids[2]])
            #expect(Self.ids(try await client.get("/v1/verifications?country=GB")) == [ids[3], ids[1], ids[0]])
            #expect(Self.ids(try await client.get("/v1/verifications?client_ref=ref-1")) == [ids[1]])
            let start = Date(timeIntervalSince1970: 1_796_000_000)
            let from = Timestamp.format(start.addingTimeInterval(5)), to = Timestamp.format(start.addingTimeInterval(15))
            #expect(Self.ids(try await client.get("/v1/verifications?from=\(from)&to=\(to)")) == [ids[2], ids[1]])
            let item = try #require((try await client.get("/v1/verifications?client_ref=ref-0"))["verifications"] as? [[String: Any]]).first
            #expect(item?["status"] as? String == "completed")
            #expect(item?["country"] as? String == "GB")
            #expect(item?["channel"] as? String == "sms")
            #expect(item?["phone_number"] as? String == "+44•••••3456")
            #expect((item?["sends"] as? [[String: Any]])?.first?["provider"] as? String == "dev")
        }
    }

    @Test("a cursor walk sees every verification once while new ones arrive between pages")
    func cursorWalk() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            var older: [String] = []
            for index in 0..<7 {
                older.append(try await client.start("+9901234\(String(format: "%05d", index))", channels: ["sms"]).id)
                // Two share each creation time: the id breaks the tie.
                if index % 2 == 1 { server.clock.advance(by: 1) }
            }
            var seen: [String] = []
            var cursor: String?
            var arrivals = 0
            repeat {
                let path = "/v1/verifications?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.get(path)
                #expect(page.status == 200)
                seen += Self.ids(page)
                cursor = page["next_cursor"] as? String
                // New verifications arrive between pages, some in the same second as the last seen.
                _ = try await client.start("+9901235\(String(format: "%05d", arrivals))", channels: ["sms"])
                arrivals += 1
            } while cursor != nil
            #expect(seen.count == Set(seen).count, "no duplicates")
            #expect(Set(seen) == Set(older), "no gaps, and none of the newer ones")
        }
    }

    @Test("another application's verifications are not listed, and its cursor is refused")
    func isolation() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let tenants = try await TenantFixtures.tenants(server)
            let a = client.bearer(tenants.keyA), b = client.bearer(tenants.keyB)
            let mine = try await a.start("+447911123456", channels: ["sms"]).id
            _ = try await a.start("+447911123457", channels: ["sms"]).id
            let theirs = try await b.start("+447911123456", channels: ["sms"]).id
            #expect(Self.ids(try await b.get("/v1/verifications")) == [theirs])
            let page = try await a.get("/v1/verifications?limit=1")
            #expect(Self.ids(page).count == 1)
            let cursor = try #require(page["next_cursor"] as? String)
            #expect(Self.ids(try await a.get("/v1/verifications?limit=1&cursor=\(cursor)")) == [mine])
            let stolen = try await b.get("/v1/verifications?limit=1&cursor=\(cursor)")
            #expect(stolen.status == 400)
            #expect((stolen["invalid_parameters"] as? [[String: String]])?.first?["name"] == "cursor")
            let otherFilter = try await a.get("/v1/verifications?limit=1&status=pending&cursor=\(cursor)")
            #expect(otherFilter.status == 400)
        }
    }

    @Test("no answer of the list carries the code, the client token or the full number")
    func noSecrets() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("918273") }) { server, client in
            let (id, reply) = try await client.start("+447911123456", channels: ["sms", "voice"])
            let token = try #require(reply.string("client_token"))
            let (other, _) = try await client.start("+447911123457", channels: ["sms"])
            #expect(try await client.post("/v1/verifications/\(other)/check", json: ["code": "918273"]).status == 200)
            for path in ["/v1/verifications", "/v1/verifications?status=pending", "/v1/verifications?limit=1"] {
                let text = String(decoding: try await client.get(path).body, as: UTF8.self)
                #expect(text.contains(id) || path.contains("limit"))
                for secret in ["918273", token, "447911123456", "447911123457", "check_url", "code_hash"] {
                    #expect(!text.contains(secret), "\(path) shows a secret")
                }
            }
        }
    }

    @Test("a verification of an address alone lists with no number and its address redacted")
    func addressAlone() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            #expect(try await twilio.start("person@example.com", channel: "email").status == 201)
            let reply = try await keyless.bearer(twilio.apiKey).get("/v1/verifications")
            #expect(reply.status == 200)
            let item = try #require((reply["verifications"] as? [[String: Any]])?.first)
            #expect(item["phone_number"] is NSNull && item["country"] is NSNull)
            #expect(item["email_address"] as? String == "p•••••@example.com")
            #expect(item["channel"] as? String == "email" && item["face"] as? String == "twilio")
            #expect(!reply.text.contains("person@"), "\(reply.text)")
        }
    }

    @Test("bad filters and bad cursors answer 400 problems naming the parameter", arguments: [
        ("status=done", "status"), ("channel=fax", "channel"), ("country=gb", "country"), ("from=yesterday", "from"),
        ("to=2026-13-01", "to"), ("limit=0", "limit"), ("limit=201", "limit"), ("cursor=abc", "cursor"),
        ("cursor=YQ.AAAAAAAAAAAAAAAAAAAAAA", "cursor"), ("sort=asc", "sort"),
    ])
    func badInput(query: String, name: String) async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await client.get("/v1/verifications?\(query)")
            #expect(reply.status == 400)
            #expect(reply.headers["content-type"] == "application/problem+json")
            #expect((reply["invalid_parameters"] as? [[String: String]])?.map { $0["name"] } == [name])
        }
    }
}
