import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Provider callbacks")
struct CallbackTests {
    static let vonageSecret = "vonage-signature-secret"
    static let twilioToken = "twilio-auth-token"

    /// Runs `body` in process against an application that verifies both providers' callbacks.
    func withApplication(_ body: (TestApplication, TestClient, ManualClock, InMemoryStore) async throws -> Void) async throws {
        let store = InMemoryStore()
        try await TestApplication.test(.inProcess, store: store, configure: { configuration, dependencies in
            WebhookFixtures.configure(&configuration, &dependencies, endpoints: [])
            configuration.callbacks.vonageSignatureSecret = Self.vonageSecret
            configuration.callbacks.twilioAuthToken = Self.twilioToken
        }) { app, client in
            try await body(app, client, app.clock, store)
        }
    }

    func vonageToken(_ body: String, clock: ManualClock, jti: String = UUID().uuidString, age: TimeInterval = 0) -> String {
        JWT.sign(claims: ["iat": .int(Int64(clock.now().timeIntervalSince1970 - age)), "jti": .string(jti),
                          "payload_hash": .string(Hex.encode(SHA256.hash(body)))], secret: Array(Self.vonageSecret.utf8))
    }

    @Test("a signed Vonage failure report fails the active step over; tampered, stale and replayed reports are refused")
    func vonage() async throws {
        try await withApplication { app, client, clock, store in
            let id = try await WebhookFixtures.start(client)
            let url = "/v1/callbacks/vonage"
            let body = #"{"status":"undeliverable","client_ref":"\#(id):0","message_uuid":"m1"}"#
            let token = vonageToken(body, clock: clock)

            let tampered = body.replacingOccurrences(of: "m1", with: "m2")
            #expect(try await client.send("POST", url, body: Data(tampered.utf8), headers: ["Authorization": "Bearer \(token)"]).status == 401)
            let stale = vonageToken(body, clock: clock, age: 600)
            #expect(try await client.send("POST", url, body: Data(body.utf8), headers: ["Authorization": "Bearer \(stale)"]).status == 401)
            #expect(try await client.send("POST", url, body: Data(body.utf8)).status == 401)
            #expect(try await store.verification(id: id)?.currentStep == 0)

            #expect(try await client.send("POST", url, body: Data(body.utf8), headers: ["Authorization": "Bearer \(token)"]).status == 204)
            let after = try #require(try await store.verification(id: id))
            #expect(after.workflow.map(\.status) == [.failed, .active])
            #expect(after.workflow[0].reason == "provider_undeliverable")
            #expect(try await client.send("POST", url, body: Data(body.utf8), headers: ["Authorization": "Bearer \(token)"]).status == 409)
        }
    }

    @Test("a signed report for an unknown verification or a step no longer active is acknowledged without effect")
    func unknownReference() async throws {
        try await withApplication { app, client, clock, store in
            let id = try await WebhookFixtures.start(client)
            let url = "/v1/callbacks/vonage"
            for ref in ["vf_unknown:0", "\(id):1", "garbage"] {
                let body = #"{"status":"failed","client_ref":"\#(ref)"}"#
                let token = vonageToken(body, clock: clock)
                #expect(try await client.send("POST", url, body: Data(body.utf8), headers: ["Authorization": "Bearer \(token)"]).status == 204)
            }
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }

    @Test("a Twilio status callback with a valid X-Twilio-Signature applies once; tampered and replayed ones are refused")
    func twilio() async throws {
        try await withApplication { app, client, clock, store in
            let id = try await WebhookFixtures.start(client)
            let path = "/v1/callbacks/twilio?ref=\(id):0"
            let url = app.baseURL + path
            let parameters: [(name: String, value: String)] = [("MessageSid", "SM1"), ("MessageStatus", "undelivered")]
            let form = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let signature = TwilioSignature.compute(authToken: Self.twilioToken, url: url, parameters: parameters)
            let headers = ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature]

            let tampered = form.replacingOccurrences(of: "SM1", with: "SM2")
            #expect(try await sendForm(client, path, tampered, headers) == 401)
            #expect(try await store.verification(id: id)?.currentStep == 0)
            #expect(try await sendForm(client, path, form, headers) == 204)
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.failed, .active])
            #expect(try await sendForm(client, path, form, headers) == 409)
        }
    }

    private func sendForm(_ client: TestClient, _ path: String, _ form: String, _ headers: [String: String]) async throws -> Int {
        try await client.send("POST", path, body: Data(form.utf8), headers: headers).status
    }
}
