import Foundation
import TacitCore
@testable import TacitFaceVonage
@testable import TacitServer
import TacitTesting
import Testing

/// `POST /v2/verify` validates its body as Vonage documents it, naming each refused
/// field in a 422's `invalid_parameters`, and starts what it accepts through the engine.
@Suite("Vonage face: start validation", .timeLimit(.minutes(1)))
struct VonageFaceValidationTests {
    static let to = "99012345672"
    static func body(_ changes: [String: Any], workflow: [[String: Any]]? = nil) -> [String: Any] {
        ["brand": "Acme", "workflow": workflow ?? [["channel": "sms", "to": to]]].merging(changes) { $1 }
    }

    // Never changed after it is made; JSON bodies are [String: Any], which is not Sendable.
    nonisolated(unsafe) static let refused: [(String, [String: Any], String)] = [
        ("no brand", ["brand": NSNull()], "brand"),
        ("an empty brand", ["brand": ""], "brand"),
        ("a brand of 19 characters", ["brand": String(repeating: "b", count: 19)], "brand"),
        ("a brand with a slash", ["brand": "Acme/Shop"], "brand"),
        ("a brand with a dollar", ["brand": "Acme$"], "brand"),
        ("a brand with a newline", ["brand": "Acme\nShop"], "brand"),
        ("a brand with a tab", ["brand": "Acme\tShop"], "brand"),
        ("a brand with a right-to-left override", ["brand": "Acme\u{202E}"], "brand"),
        ("a brand with a zero-width space", ["brand": "Ac\u{200B}me"], "brand"),
        ("a channel_timeout of 14", ["channel_timeout": 14], "channel_timeout"),
        ("a channel_timeout of 901", ["channel_timeout": 901], "channel_timeout"),
        ("a code_length of 3", ["code_length": 3], "code_length"),
        ("a code_length of 11", ["code_length": 11], "code_length"),
        ("a client_ref with a dash", ["client_ref": "ref-1"], "client_ref"),
        ("a client_ref of 41 characters", ["client_ref": String(repeating: "r", count: 41)], "client_ref"),
        ("a locale that is not one", ["locale": "english"], "locale"),
        ("a fraud_check that is not a boolean", ["fraud_check": "yes"], "fraud_check"),
        ("no workflow", ["workflow": NSNull()], "workflow"),
        ("an empty workflow", ["workflow": [] as [Any]], "workflow"),
        ("four channels", ["workflow": [["channel": "sms", "to": to], ["channel": "voice", "to": to],
                                       ["channel": "whatsapp", "to": to, "from": "447700900001"], ["channel": "sms", "to": to]]], "workflow"),
        ("silent_auth second", ["workflow": [["channel": "sms", "to": to], ["channel": "silent_auth", "to": to]]], "workflow"),
        ("an email step alone, to a malformed address", ["workflow": [["channel": "email", "to": "a@b"]]], "workflow[0].to"),
        ("an email step to a malformed address", ["workflow": [["channel": "sms", "to": to], ["channel": "email", "to": "a@b"]]],
         "workflow[1].to"),
        ("rcs, which Tacit has not", ["workflow": [["channel": "rcs", "to": to, "from": "Acme"]]], "workflow[0].channel"),
        ("a to that is not a number", ["workflow": [["channel": "sms", "to": "call me"]]], "workflow[0].to"),
        ("no to", ["workflow": [["channel": "voice"]]], "workflow[0].to"),
        ("two numbers", ["workflow": [["channel": "sms", "to": to], ["channel": "voice", "to": "99012345674"]]], "workflow[1].to"),
        ("whatsapp without from", ["workflow": [["channel": "whatsapp", "to": to]]], "workflow[0].from"),
        ("an sms from of 12 letters", ["workflow": [["channel": "sms", "to": to, "from": "AcmeShopping"]]], "workflow[0].from"),
        ("an app_hash of 10", ["workflow": [["channel": "sms", "to": to, "app_hash": "abcdefghij"]]], "workflow[0].app_hash"),
        ("silent auth advanced", ["workflow": [["channel": "silent_auth", "to": to, "mode": "advanced"]]], "workflow[0].mode"),
        ("a custom code", ["code": "1234"], "code"),
    ]

    @Test("each documented limit refuses its field with 422 and invalid_parameters, in Vonage's problem shape")
    func refusals() async throws {
        // One application for the whole table: a server per row would cost more than the rows.
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            for (label, changes, field) in Self.refused {
                let reply = try await vonage.send("POST", "/v2/verify", json: Self.body(changes))
                #expect(reply.status == 422, "\(label)")
                #expect(reply.header("content-type") == "application/problem+json", "\(label)")
                #expect(reply.string("title") == "Invalid params", "\(label)")
                #expect(reply.string("type") == "https://developer.vonage.com/en/api-errors/verify-v2#invalid-params", "\(label)")
                #expect(reply.string("instance") != nil && reply.string("detail") != nil, "\(label)")
                let names = (reply.json["invalid_parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(names.contains(field), "\(label): \(names)")
            }
            #expect(try await app.store.pendingCount() == 0, "a refused start starts nothing")
        }
    }

    @Test("the limits' edges are accepted: brand of 18, channel_timeout 15 and 900, code_length 4 and 10, three channels, a client_ref of 40")
    func edgesAccepted() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            let bodies: [[String: Any]] = [
                Self.body(["brand": String(repeating: "b", count: 18), "channel_timeout": 15, "code_length": 4], workflow: [["channel": "sms", "to": "99012345600"]]),
                Self.body(["channel_timeout": 900, "code_length": 10, "client_ref": String(repeating: "r", count: 40), "locale": "en-gb",
                           "fraud_check": false], workflow: [["channel": "silent_auth", "to": "99012345602"], ["channel": "sms", "to": "99012345602"],
                                                             ["channel": "voice", "to": "99012345602"]]),
            ]
            for body in bodies {
                let reply = try await vonage.send("POST", "/v2/verify", json: body)
                #expect(reply.status == 202, "\(reply.text)")
            }
        }
    }

    @Test("a start answers 202 with a UUID request_id that /v1 shows as the same verification, face vonage, Vonage's defaults")
    func startIsOneEngine() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            let reply = try await vonage.start(Self.to, ["sms"])
            #expect(reply.status == 202)
            let id = try #require(reply.string("request_id"))
            #expect(IDGenerator.isVonageRequestID(id))
            #expect(reply.string("check_url") == nil)
            let stored = try #require(try await app.store.verification(id: id))
            #expect(stored.face == "vonage")
            #expect(stored.codeLength == 4 && stored.channelTimeout == 180)
            #expect(try await keyless.latestCode("+" + Self.to)?.count == 4)
            let events = try await keyless.get("/v1/verifications/\(id)/events")
            #expect(events.status == 404, "another application's verification: the dev app can't read it")
        }
    }

    @Test("the face's OpenAPI document is served without a credential and documents every face route")
    func documentServed() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await client.get("/v2/verify/openapi.json")
            #expect(reply.status == 200)
            let paths = try #require(reply.json["paths"] as? [String: [String: Any]])
            for route in RouteSecurityDeclarationTests.table(dev: true).declarations where route.pattern.hasPrefix("/v2/verify") {
                let path = route.pattern.replacingOccurrences(of: ":id", with: "{request_id}")
                #expect(paths[path]?[route.method.lowercased()] != nil, "\(route.method) \(route.pattern)")
            }
        }
    }

    @Test("request ids are UUIDv7-shaped and sort by creation time")
    func idsAreTimeOrdered() {
        let clock = ManualClock()
        let ids = IDGenerator.vonageRequestID(now: { clock.now() })
        let first = ids.make()
        clock.advance(by: 0.002)
        let second = ids.make()
        #expect(IDGenerator.isVonageRequestID(first) && IDGenerator.isVonageRequestID(second))
        #expect(first < second)
        #expect(Array(first)[14] == "7")
    }
}
