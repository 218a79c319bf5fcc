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

    func application(_ clock: ManualClock, store: InMemoryStore) async throws -> TacitApplication {
        var configuration = Live.configuration(endpoints: [])
        configuration.callbacks.vonageSignatureSecret = Self.vonageSecret
        configuration.callbacks.twilioAuthToken = Self.twilioToken
        return try await Live.application(configuration, store: store, clock: clock)
    }

    func vonageToken(_ body: String, clock: ManualClock, jti: String = UUID().uuidString, age: TimeInterval = 0) -> String {
        JWT.sign(claims: ["iat": .int(Int64(clock.now().timeIntervalSince1970 - age)), "jti": .string(jti),
                          "payload_hash": .string(Hex.encode(SHA256.hash(body)))], secret: Array(Self.vonageSecret.utf8))
    }

    @Test("a signed Vonage failure report fails the active step over; tampered, stale and replayed reports are refused")
    func vonage() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let app = try await application(clock, store: store)
        let id = try await Live.start(app)
        let url = app.baseURL + "/v1/callbacks/vonage"
        let body = #"{"status":"undeliverable","client_ref":"\#(id):0","message_uuid":"m1"}"#
        let token = vonageToken(body, clock: clock)

        let tampered = body.replacingOccurrences(of: "m1", with: "m2")
        #expect(try await Live.send("POST", url, json: tampered, headers: ["Authorization": "Bearer \(token)"]).0 == 401)
        let stale = vonageToken(body, clock: clock, age: 600)
        #expect(try await Live.send("POST", url, json: body, headers: ["Authorization": "Bearer \(stale)"]).0 == 401)
        #expect(try await Live.send("POST", url, json: body).0 == 401)
        #expect(try await store.verification(id: id)?.currentStep == 0)

        #expect(try await Live.send("POST", url, json: body, headers: ["Authorization": "Bearer \(token)"]).0 == 204)
        let after = try #require(try await store.verification(id: id))
        #expect(after.workflow.map(\.status) == [.failed, .active])
        #expect(after.workflow[0].reason == "provider_undeliverable")
        #expect(try await Live.send("POST", url, json: body, headers: ["Authorization": "Bearer \(token)"]).0 == 409)
        await app.shutdown()
    }

    @Test("a signed report for an unknown verification or a step no longer active is acknowledged without effect")
    func unknownReference() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let app = try await application(clock, store: store)
        let id = try await Live.start(app)
        let url = app.baseURL + "/v1/callbacks/vonage"
        for ref in ["vf_unknown:0", "\(id):1", "garbage"] {
            let body = #"{"status":"failed","client_ref":"\#(ref)"}"#
            let token = vonageToken(body, clock: clock)
            #expect(try await Live.send("POST", url, json: body, headers: ["Authorization": "Bearer \(token)"]).0 == 204)
        }
        #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        await app.shutdown()
    }

    @Test("a Twilio status callback with a valid X-Twilio-Signature applies once; tampered and replayed ones are refused")
    func twilio() async throws {
        let clock = ManualClock()
        let store = InMemoryStore()
        let app = try await application(clock, store: store)
        let id = try await Live.start(app)
        let url = app.baseURL + "/v1/callbacks/twilio?ref=\(id):0"
        let parameters: [(name: String, value: String)] = [("MessageSid", "SM1"), ("MessageStatus", "undelivered")]
        let form = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let signature = TwilioSignature.compute(authToken: Self.twilioToken, url: url, parameters: parameters)
        let headers = ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature]

        let tampered = form.replacingOccurrences(of: "SM1", with: "SM2")
        #expect(try await sendForm(url, tampered, headers) == 401)
        #expect(try await store.verification(id: id)?.currentStep == 0)
        #expect(try await sendForm(url, form, headers) == 204)
        #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.failed, .active])
        #expect(try await sendForm(url, form, headers) == 409)
        await app.shutdown()
    }

    private func sendForm(_ url: String, _ form: String, _ headers: [String: String]) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(form.utf8)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
