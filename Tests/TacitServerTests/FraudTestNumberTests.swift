import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Test numbers (docs/fraud.md#test-numbers): a start sends nothing on `/v1` and through the
/// Twilio face, the fixed code checks and a wrong one counts, the timeline marks the start,
/// the code is stored sealed, and an expired test number is an ordinary number again.
@Suite("Fraud: test numbers", .timeLimit(.minutes(1)))
struct FraudTestNumberTests {
    static let number = "+447911123456"
    static let code = "482913"

    /// Adds the test number to the Twilio calls' application, sealed with the server's keys.
    static func add(_ app: TestApplication, _ twilio: TwilioCalls, expiresIn: TimeInterval? = nil) async throws {
        let secrets = try #require(app.application.assembled.withLock { $0?.engine.runner.secrets })
        let manager = try #require(TestNumberManager(store: app.store) { try secrets.fieldProtection.seal($0) })
        let now = app.clock.now()
        let added = try await manager.add(application: twilio.application.id, number: "+44 7911 123456",
                                          code: Self.code, expiresAt: expiresIn.map { now.addingTimeInterval($0) },
                                          now: now)
        #expect(added == Self.number)
    }

    @Test("a /v1 start for a test number sends nothing; a wrong code counts, the fixed code completes")
    func v1() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.add(app, twilio)
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.number, channels: ["sms", "voice"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.isEmpty)
            let wrong = try await client.post("/v1/verifications/\(id)/check", json: ["code": "000000"])
            #expect(wrong.status == 400 && wrong.json["attempts_remaining"] as? Int == 4, "\(wrong.text)")
            let right = try await client.post("/v1/verifications/\(id)/check", json: ["code": Self.code])
            #expect(right.status == 200 && right.string("status") == "completed", "\(right.text)")
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""test_number":true"#) && events.contains("no message is sent"))
            #expect(!events.contains(Self.code))
            #expect(!events.contains("code_sent"))
        }
    }

    @Test("after the first step times out, the next step of a test number sends nothing and takes the fixed code")
    func laterStep() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.add(app, twilio)
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.number, channels: ["sms", "voice"],
                                                     extra: ["channel_timeout": 60])
            #expect(reply.status == 202, "\(reply.text)")
            await app.advance(by: 61)
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.string("channel") == "voice", "\(state.text)")
            #expect(app.sender.messages.isEmpty)
            let right = try await client.post("/v1/verifications/\(id)/check", json: ["code": Self.code])
            #expect(right.status == 200, "\(right.text)")
        }
    }

    @Test("a test number's silent first step asks no provider and ends as skipped with test_number")
    func silentStep() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.add(app, twilio)
            let client = keyless.bearer(twilio.apiKey)
            let (id, reply) = try await client.start(Self.number, channels: ["silent_auth", "sms"])
            #expect(reply.status == 202 && reply.json["check_url"] == nil, "\(reply.text)")
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""reason":"test_number""#), "\(events)")
            #expect(app.sender.messages.isEmpty && app.httpClient.requests.isEmpty)
            let right = try await client.post("/v1/verifications/\(id)/check", json: ["code": Self.code])
            #expect(right.status == 200, "\(right.text)")
        }
    }

    @Test("through the Twilio face a test number's start sends nothing and the fixed code approves")
    func twilioFace() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.add(app, twilio)
            let started = try await twilio.start(Self.number)
            #expect(started.status == 201, "\(started.text)")
            #expect(app.sender.messages.isEmpty)
            let checked = try await twilio.check(to: Self.number, code: Self.code)
            #expect(checked.json["status"] as? String == "approved", "\(checked.text)")
        }
    }

    @Test("an expired test number is an ordinary number: its start sends a code")
    func expired() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            try await Self.add(app, twilio, expiresIn: 60)
            await app.advance(by: 61)
            let (id, reply) = try await keyless.bearer(twilio.apiKey).start(Self.number, channels: ["sms"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(app.sender.messages.count == 1)
            let events = try await keyless.bearer(twilio.apiKey).get("/v1/verifications/\(id)/events").text
            #expect(!events.contains("test_number"))
        }
    }

    @Test("the fixed code is stored sealed, and a premium-rate number or a malformed code is refused")
    func stored() async throws {
        let store = InMemoryStore()
        let made = try await ApplicationManager.open(store: store).create(name: "Shop")
        let secrets = ServerSecrets(master: Array(repeating: 7, count: 32))
        let manager = try #require(TestNumberManager(store: store) { try secrets.fieldProtection.seal($0) })
        let id = made.application.id
        _ = try await manager.add(application: id, number: Self.number, code: Self.code, expiresAt: nil, now: Date())
        let kept = try #require(try await manager.list(application: id).first)
        #expect(kept.phoneNumber == Self.number && kept.sealedCode != Array(Self.code.utf8))
        #expect(!String(decoding: kept.sealedCode, as: UTF8.self).contains(Self.code))
        #expect(try secrets.fieldProtection.open(kept.sealedCode) == Array(Self.code.utf8))
        await #expect(throws: TestNumberManager.Refusal.self) {
            _ = try await manager.add(application: id, number: "+449098765432", code: Self.code, expiresAt: nil,
                                      now: Date())
        }
        await #expect(throws: TestNumberManager.Refusal.self) {
            _ = try await manager.add(application: id, number: Self.number, code: "12ab", expiresAt: nil, now: Date())
        }
        #expect(try await manager.remove(application: id, number: Self.number))
        #expect(try await manager.list(application: id).isEmpty)
    }
}
