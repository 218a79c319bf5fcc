import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitProviderKit
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersTwilio

/// Twilio's status callbacks at `/v1/callbacks/twilio`, in process.
@Suite("Twilio status callbacks")
struct TwilioCallbackTests {
    static let token = "twilio-auth-token"

    @Test("a Twilio status callback with a valid X-Twilio-Signature applies once; tampered and replayed ones are refused")
    func twilio() async throws {
        let store = InMemoryStore()
        try await TestApplication.test(.inProcess, store: store, sender: .accepting("twilio", messageId: "SM1"),
                                       configure: { _, dependencies in
            dependencies.callbacks = [TwilioCallbackRoute(authToken: Self.token)]
        }) { app, client in
            let start = #"{"phone_number":"+447911123456","workflow":[{"channel":"sms"},{"channel":"voice"}]}"#
            let id = try #require(try await client.post("/v1/verifications", raw: start).string("request_id"))
            await client.sendApplied(id)
            let path = "/v1/callbacks/twilio?ref=\(id):0"
            let url = app.baseURL + path
            let parameters: [(name: String, value: String)] = [("MessageSid", "SM1"), ("MessageStatus", "undelivered")]
            let form = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let signature = TwilioSignature.compute(authToken: Self.token, url: url, parameters: parameters)
            let headers = ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature]
            func send(_ form: String) async throws -> Int {
                try await client.send("POST", path, body: Data(form.utf8), headers: headers).status
            }

            #expect(try await send(form.replacingOccurrences(of: "SM1", with: "SM2")) == 401)
            #expect(try await store.verification(id: id)?.currentStep == 0)
            #expect(try await send(form) == 204)
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.failed, .active])
            #expect(try await send(form) == 409)
        }
    }

    @Test("""
        a signed callback re-sent reordered, percent-encoded otherwise or with stray & is a replay: \
        the key is what the signature covers
        """)
    func reencodedReplay() async throws {
        let store = InMemoryStore()
        try await TestApplication.test(.inProcess, store: store, sender: .accepting("twilio", messageId: "SM1"),
                                       configure: { _, dependencies in
            dependencies.callbacks = [TwilioCallbackRoute(authToken: Self.token)]
        }) { app, client in
            let start = #"{"phone_number":"+447911123456","workflow":[{"channel":"sms"},{"channel":"voice"}]}"#
            let id = try #require(try await client.post("/v1/verifications", raw: start).string("request_id"))
            await client.sendApplied(id)
            let path = "/v1/callbacks/twilio?ref=\(id):0"
            let parameters: [(name: String, value: String)] = [("MessageSid", "SM1"), ("MessageStatus", "delivered"),
                                                               ("To", "+447911123456")]
            let signature = TwilioSignature.compute(authToken: Self.token, url: app.baseURL + path,
                                                    parameters: parameters)
            let headers = ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature]
            func send(_ form: String) async throws -> Int {
                try await client.send("POST", path, body: Data(form.utf8), headers: headers).status
            }
            #expect(try await send("MessageSid=SM1&MessageStatus=delivered&To=%2B447911123456") == 204)
            for variant in ["MessageStatus=delivered&MessageSid=SM1&To=%2B447911123456",
                            "To=%2B447911123456&MessageSid=SM1&MessageStatus=delivered",
                            "MessageSid=%53M1&MessageStatus=%64elivered&To=%2b447911123456",
                            "&MessageSid=SM1&&MessageStatus=delivered&To=%2B447911123456&",
                            "MessageSid=SM1&MessageStatus=delivered&&&To=%2B447911123456"] {
                #expect(try await send(variant) == 409, "\(variant)")
            }
        }
    }

    @Test("without an auth token the route answers 404; the token is read from the provider settings as given")
    func unconfigured() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.callbacks = [TwilioCallbackRoute(ProviderSettings())]
        }) { _, client in
            let answer = try await client.send("POST", "/v1/callbacks/twilio?ref=vf_x:0", body: Data("a=b".utf8))
            #expect(answer.status == 404)
        }
        #expect(TwilioCallbackRoute(ProviderSettings(["TACIT_TWILIO_AUTH_TOKEN": "t"])).authToken == "t")
    }

    @Test("form bodies decode plus signs, escapes and pairs without a value, in order")
    func form() {
        let pairs = FormBody.pairs(Array("a=1+2&b=%26x&c&=dropped".utf8))
        #expect(pairs.map(\.name) == ["a", "b", "c"])
        #expect(pairs.map(\.value) == ["1 2", "&x", ""])
    }
}
