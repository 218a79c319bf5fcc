import Foundation
import Testing
import TacitCrypto

@Suite("Standard Webhooks signatures")
struct StandardWebhooksTests {
    // The example from the Standard Webhooks specification.
    static let specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let specBody = Array(#"{"test": 2432232314}"#.utf8)
    static let specSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    // A Tacit-shaped delivery, signed independently with Python's hmac.
    static let secret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXdGFjaXR3ZWJob29r"
    static let body = Array(#"{"type":"verification.completed","request_id":"r1"}"#.utf8)
    static let signature = "v1,tdiJ9gNtOlrtwssWq+KUSlh+oEnQCpYctIOD8r26xSo="
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test("signing matches the specification's example")
    func specVector() throws {
        let signed = try StandardWebhooks.sign(
            secret: Self.specSecret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Self.specBody)
        #expect(signed == Self.specSignature)
    }

    @Test("signing matches an independently computed delivery")
    func tacitVector() throws {
        let signed = try StandardWebhooks.sign(secret: Self.secret, id: "msg_2Kx9", timestamp: 1_767_225_600, body: Self.body)
        #expect(signed == Self.signature)
    }

    @Test("verification accepts any one matching signature among several")
    func rotation() throws {
        let header = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= v2,xyz " + Self.signature
        try StandardWebhooks.verify(
            secret: Self.secret, id: "msg_2Kx9", timestamp: "1767225600", signatures: header, body: Self.body, now: Self.now)
    }

    @Test("a changed body, id or secret fails verification")
    func tampering() {
        #expect(throws: WebhookSignatureError.noMatchingSignature) {
            try StandardWebhooks.verify(secret: Self.secret, id: "msg_2Kx9", timestamp: "1767225600",
                                        signatures: Self.signature, body: Self.body + [0x20], now: Self.now)
        }
        #expect(throws: WebhookSignatureError.noMatchingSignature) {
            try StandardWebhooks.verify(secret: Self.secret, id: "msg_other", timestamp: "1767225600",
                                        signatures: Self.signature, body: Self.body, now: Self.now)
        }
        #expect(throws: WebhookSignatureError.noMatchingSignature) {
            try StandardWebhooks.verify(secret: Self.specSecret, id: "msg_2Kx9", timestamp: "1767225600",
                                        signatures: Self.signature, body: Self.body, now: Self.now)
        }
    }

    @Test("timestamps more than five minutes off either way are refused", arguments: [-301.0, 301.0])
    func tolerance(offset: Double) {
        #expect(throws: WebhookSignatureError.timestampOutOfTolerance) {
            try StandardWebhooks.verify(secret: Self.secret, id: "msg_2Kx9", timestamp: "1767225600",
                                        signatures: Self.signature, body: Self.body, now: Self.now + offset)
        }
    }

    @Test("timestamps just inside five minutes are accepted", arguments: [-300.0, 300.0])
    func insideTolerance(offset: Double) throws {
        try StandardWebhooks.verify(secret: Self.secret, id: "msg_2Kx9", timestamp: "1767225600",
                                    signatures: Self.signature, body: Self.body, now: Self.now + offset)
    }

    @Test("a malformed secret or timestamp is a typed error")
    func malformedInputs() {
        #expect(throws: WebhookSignatureError.badSecret) {
            try StandardWebhooks.sign(secret: "whsec_not base64!", id: "m", timestamp: 1, body: [])
        }
        #expect(throws: WebhookSignatureError.badTimestamp) {
            try StandardWebhooks.verify(secret: Self.secret, id: "m", timestamp: "soon",
                                        signatures: Self.signature, body: Self.body, now: Self.now)
        }
    }

    @Test("a freshly generated secret signs and verifies")
    func generatedSecret() throws {
        let secret = Token.webhookSecret()
        let signature = try StandardWebhooks.sign(secret: secret, id: "msg_1", timestamp: 1_767_225_600, body: Self.body)
        try StandardWebhooks.verify(secret: secret, id: "msg_1", timestamp: "1767225600",
                                    signatures: signature, body: Self.body, now: Self.now)
    }
}
