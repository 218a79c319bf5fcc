import Foundation
import Testing
import TacitTesting

/// Every kind of bad input gets its 4xx problem+json, never a 5xx, and leaves stored
/// state exactly as it was.
@Suite("Bad input")
struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var body: String
        var status: Int
        var type: String
        var testDescription: String { name }
    }

    static let startCases: [Case] = [
        Case(name: "malformed JSON", body: #"{"phone_number": "+99012345670""#, status: 400, type: "malformed-json"),
        Case(name: "empty body", body: "", status: 400, type: "malformed-json"),
        Case(name: "a JSON array", body: "[1,2]", status: 400, type: "malformed-json"),
        Case(name: "a field given twice", body: #"{"phone_number":"+99012345670","phone_number":"+99012345671"}"#, status: 400, type: "malformed-json"),
        Case(name: "missing phone number", body: #"{"brand":"Acme"}"#, status: 422, type: "invalid-parameters"),
        Case(name: "phone number of the wrong type", body: #"{"phone_number": 99012345670}"#, status: 422, type: "invalid-parameters"),
        Case(name: "unknown field", body: #"{"phone_number":"+99012345670","colour":"red"}"#, status: 422, type: "invalid-parameters"),
        Case(name: "invalid number", body: #"{"phone_number":"+1555"}"#, status: 422, type: "invalid-phone-number"),
        Case(name: "letters for a number", body: #"{"phone_number":"call me"}"#, status: 422, type: "invalid-phone-number"),
        Case(name: "a premium-rate number", body: #"{"phone_number":"+449090901234"}"#, status: 403, type: "fraud-blocked"),
        Case(name: "a UK fixed line by SMS only", body: #"{"phone_number":"+442079460000","workflow":[{"channel":"sms"}]}"#, status: 422, type: "invalid-phone-number"),
        Case(name: "code length too short", body: #"{"phone_number":"+99012345670","code_length":3}"#, status: 422, type: "invalid-parameters"),
        Case(name: "code length too long", body: #"{"phone_number":"+99012345670","code_length":11}"#, status: 422, type: "invalid-parameters"),
        Case(name: "code length as text", body: #"{"phone_number":"+99012345670","code_length":"6"}"#, status: 422, type: "invalid-parameters"),
        Case(name: "fractional timeout", body: #"{"phone_number":"+99012345670","channel_timeout":20.5}"#, status: 422, type: "invalid-parameters"),
        Case(name: "timeout out of range", body: #"{"phone_number":"+99012345670","channel_timeout":5}"#, status: 422, type: "invalid-parameters"),
        Case(name: "silent auth not first", body: #"{"phone_number":"+99012345670","workflow":[{"channel":"sms"},{"channel":"silent_auth"}]}"#, status: 422, type: "invalid-parameters"),
        Case(name: "a repeated step", body: #"{"phone_number":"+99012345670","workflow":[{"channel":"sms"},{"channel":"sms"}]}"#, status: 422, type: "invalid-parameters"),
        Case(name: "an empty workflow", body: #"{"phone_number":"+99012345670","workflow":[]}"#, status: 422, type: "invalid-parameters"),
        Case(name: "five steps", body: #"{"phone_number":"+99012345670","workflow":[{"channel":"silent_auth"},{"channel":"sms"},{"channel":"voice"},{"channel":"whatsapp"},{"channel":"sms"}]}"#, status: 422, type: "invalid-parameters"),
        Case(name: "an unknown channel", body: #"{"phone_number":"+99012345670","workflow":[{"channel":"pigeon"}]}"#, status: 422, type: "invalid-parameters"),
        Case(name: "a brand too long", body: #"{"phone_number":"+99012345670","brand":"ABCDEFGHIJKLMNOPQRS"}"#, status: 422, type: "invalid-parameters"),
        Case(name: "a brand with a newline", body: #"{"phone_number":"+99012345670","brand":"Acme\nShop"}"#,
             status: 422, type: "invalid-parameters"),
        Case(name: "a brand with a tab", body: #"{"phone_number":"+99012345670","brand":"Acme\tShop"}"#,
             status: 422, type: "invalid-parameters"),
        Case(name: "a brand with a right-to-left override", body: #"{"phone_number":"+99012345670","brand":"Acme\u202e"}"#,
             status: 422, type: "invalid-parameters"),
        Case(name: "a brand with a zero-width space", body: #"{"phone_number":"+99012345670","brand":"Ac\u200bme"}"#,
             status: 422, type: "invalid-parameters"),
        Case(name: "a bad sim swap action", body: #"{"phone_number":"+99012345670","sim_swap":{"action":"explode"}}"#, status: 422, type: "invalid-parameters"),
        Case(name: "sim swap max age out of range", body: #"{"phone_number":"+99012345670","sim_swap":{"max_age_hours":2401}}"#, status: 422, type: "invalid-parameters"),
        Case(name: "a bad country hint", body: #"{"phone_number":"07400 123456","country":"GBR"}"#, status: 422, type: "invalid-parameters"),
        Case(name: "a national number without a country", body: #"{"phone_number":"07400 123456"}"#, status: 422, type: "invalid-phone-number"),
    ]

    @Test("bad start requests are refused with a problem and create nothing", arguments: startCases)
    func badStart(_ badCase: Case) async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let before = try DatabaseSnapshot(path: server.databasePath)
            let reply = try await client.post("/v1/verifications", raw: badCase.body)
            #expect(reply.status == badCase.status)
            #expect(reply.string("type") == badCase.type)
            #expect(reply.headers["content-type"] == "application/problem+json")
            #expect(reply["title"] is String && reply["detail"] is String && reply["status"] as? Int == badCase.status)
            if badCase.status == 422 && badCase.type == "invalid-parameters" {
                #expect((reply["invalid_parameters"] as? [[String: String]])?.isEmpty == false)
            }
            #expect(!reply.text.contains("99012345670"), "errors never echo the number")
            #expect(try DatabaseSnapshot(path: server.databasePath) == before)
        }
    }

    @Test("a national number with a country hint is accepted as E.164")
    func nationalWithCountry() async throws {
        try await TestApplication.test(.inProcess) { server, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": "07400 123456", "country": "GB", "workflow": [["channel": "sms"]]])
            #expect(reply.status == 202)
        }
    }

    @Test("the +990 range is refused without --dev")
    func virtualRangeNeedsDev() async throws {
        try await TestApplication.test(.inProcess, configure: { configuration, _ in configuration.dev = false }) { server, client in
            let reply = try await client.post("/v1/verifications", json: ["phone_number": "+99012345670"])
            #expect(reply.status == 422 || reply.status == 401)
        }
    }

    @Test("a 1 MiB body is refused with 413 and the server keeps answering")
    func hugeBody() async throws {
        // Live: the size limit is the HTTP layer's, before any handler runs.
        try await TestApplication.test(.live) { server, client in
            let huge = #"{"phone_number":"+99012345670","brand":""# + String(repeating: "x", count: 1 << 20) + #""}"#
            let reply = try await client.post("/v1/verifications", raw: huge)
            #expect(reply.status == 413)
            #expect(reply.string("type") == "payload-too-large")
            #expect(try await client.get("/healthz").status == 200)
        }
    }

    @Test("bad checks are refused without counting as attempts")
    func badChecks() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.codes = .fixed("246810") }) { server, client in
            let (id, _) = try await client.start("+99012345691", channels: ["sms"])
            let before = try DatabaseSnapshot(path: server.databasePath)
            let cases: [(String, Int, String)] = [
                (#"{"code":"12ab56"}"#, 422, "invalid-parameters"),
                (#"{"code":"12345"}"#, 422, "invalid-parameters"),
                (#"{"code":"1234567"}"#, 422, "invalid-parameters"),
                (#"{"code":123456}"#, 422, "invalid-parameters"),
                (#"{}"#, 422, "invalid-parameters"),
                (#"{"code":"246810","extra":1}"#, 422, "invalid-parameters"),
                (#"{"code":"#, 400, "malformed-json"),
            ]
            for (body, status, type) in cases {
                let reply = try await client.post("/v1/verifications/\(id)/check", raw: body)
                #expect(reply.status == status, "\(body)")
                #expect(reply.string("type") == type, "\(body)")
            }
            #expect(try DatabaseSnapshot(path: server.databasePath) == before)
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": "246810"]).status == 200)
        }
    }

    @Test("unknown ids are 404 on every route", arguments: ["GET", "CHECK", "NEXT", "DELETE"])
    func unknownIds(route: String) async throws {
        try await TestApplication.test(.inProcess) { server, client in
            for id in ["vf_doesnotexist", "x", String(repeating: "a", count: 200), "..%2F..%2Fetc"] {
                let reply: TestResponse
                switch route {
                case "GET": reply = try await client.get("/v1/verifications/\(id)")
                case "CHECK": reply = try await client.post("/v1/verifications/\(id)/check", json: ["code": "123456"])
                case "NEXT": reply = try await client.post("/v1/verifications/\(id)/next", json: [:])
                default: reply = try await client.send("DELETE", "/v1/verifications/\(id)")
                }
                #expect(reply.status == 404, "\(route) \(id)")
                #expect(reply.string("type") == "not-found")
            }
        }
    }
}
