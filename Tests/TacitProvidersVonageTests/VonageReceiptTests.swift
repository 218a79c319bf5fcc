import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersVonage

/// Vonage SMS API delivery receipts: the `sig` scheme against vectors computed by Vonage's
/// Python SDK (vonage 4.9.1, `Auth.sign_params`) and, for `md5hash`, which that SDK no longer
/// signs, by Vonage's documented recipe; then the route, in process.
@Suite("Vonage SMS API delivery receipts")
struct VonageReceiptTests {
    static let secret = VonageCallbackFixture.secret
    /// A receipt shaped like the docs' example, with a value holding `&` and `=`.
    static let vector: [(name: String, value: String)] = [
        ("msisdn", "447700900000"), ("to", "AcmeInc"), ("network-code", "12345"), ("messageId", "0A0000001234567B"),
        ("price", "0.03330000"), ("status", "delivered"), ("scts", "2001011400"), ("err-code", "0"),
        ("api-key", "abcd1234"), ("message-timestamp", "2020-01-01 12:00:00"), ("client-ref", "vf_a=b&c:0"),
        ("timestamp", "1577880000"), ("nonce", "7f0e2d1c"),
    ]
    static let expected: [VonageSignature.Method: String] = [
        .md5hash: "413727a04f914ef0e3c8cf2438aac269",
        .md5: "52249e4a7f721d986a7a9ae4e82cfe3b",
        .sha1: "26a2a650b7e9b2d56ef267b93dfdcb6fbf726da1",
        .sha256: "378460390056c5ed1fcca984841015f93d7b7235e7a5a0c49a995f9eb28462c4",
        .sha512: "eb8ae4cbac68fae60d6f34f720f350ff8af827801d6aee1195264229dcdaab60813c32e9e6cdfb0e5ad78723f3a3588efee67c9b4308488ffa1007482cf8a944",
    ]

    @Test("each signature method signs the docs-shaped receipt exactly as Vonage's SDK does")
    func vectors() {
        for method in VonageSignature.Method.allCases {
            #expect(VonageSignature.sign(Self.vector, secret: Self.secret, method: method) == Self.expected[method], "\(method)")
        }
    }

    @Test("a signature verifies in either case, ignores the order of the parameters and any sig among them, and fails on any change")
    func verification() throws {
        let sig = try #require(Self.expected[.sha256])
        #expect(VonageSignature.isValid(sig.uppercased(), parameters: Self.vector.reversed() + [("sig", "x")], secret: Self.secret, method: .sha256))
        var changed = Self.vector
        changed[5].value = "failed"
        #expect(!VonageSignature.isValid(sig, parameters: changed, secret: Self.secret, method: .sha256))
        #expect(!VonageSignature.isValid(sig, parameters: Self.vector, secret: "other", method: .sha256))
        #expect(!VonageSignature.isValid(sig, parameters: Self.vector, secret: Self.secret, method: .sha512))
    }

    func withApplication(method: VonageSignature.Method = .md5hash,
                         _ body: (TestClient, ManualClock, InMemoryStore) async throws -> Void) async throws {
        let store = InMemoryStore()
        let sender = RecordingSender.accepting("vonage", messageId: "0A00000012345678")
        try await TestApplication.test(.inProcess, store: store, sender: sender, configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies, method: method)
        }) { app, client in
            try await body(client, app.clock, store)
        }
    }

    /// A receipt for `reference`, stamped at the clock's time less `age`, signed unless `secret` is nil.
    static func receipt(_ reference: String, status: String, clock: ManualClock, age: TimeInterval = 0, errorCode: String = "0",
                        secret: String? = Self.secret, method: VonageSignature.Method = .md5hash) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("msisdn", "99012345670"), ("to", "Tacit"), ("messageId", "0A00000012345678"), ("status", status),
            ("err-code", errorCode), ("client-ref", reference), ("nonce", UUID().uuidString),
            ("timestamp", String(Int(clock.now().timeIntervalSince1970 - age))),
        ]
        if let secret { fields.append(("sig", VonageSignature.sign(fields, secret: secret, method: method))) }
        return fields
    }

    static func form(_ fields: [(name: String, value: String)]) -> Data {
        Data(fields.map { $0.name + "=" + ($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
            .joined(separator: "&").utf8)
    }

    static let formHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
    static let url = "/v1/callbacks/vonage"

    @Test("a signed failed receipt fails the active step over with its error code; forged, unsigned, stale and replayed ones are refused and change nothing")
    func failedReceipt() async throws {
        try await withApplication { client, clock, store in
            let number = VonageCallbackFixture.sentNumber
            let id = try await VonageCallbackFixture.start(client, number: number)
            let refused = [
                Self.receipt("\(id):0", status: "failed", clock: clock, secret: "forged"),
                Self.receipt("\(id):0", status: "failed", clock: clock, secret: nil),
                Self.receipt("\(id):0", status: "failed", clock: clock, age: 3600),
                Self.receipt("\(id):0", status: "failed", clock: clock, age: -3600),
            ]
            for fields in refused {
                #expect(try await client.send("POST", Self.url, body: Self.form(fields), headers: Self.formHeaders).status == 401)
            }
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])

            let signed = Self.receipt("\(id):0", status: "failed", clock: clock, errorCode: "6")
            #expect(try await client.send("POST", Self.url, body: Self.form(signed), headers: Self.formHeaders).status == 204)
            let after = try #require(try await store.verification(id: id))
            #expect(after.workflow.map(\.status) == [.failed, .active])
            #expect(after.workflow[0].reason == "provider_failed")
            #expect(try await client.send("POST", Self.url, body: Self.form(signed), headers: Self.formHeaders).status == 409)
        }
    }

    @Test("a signed JSON receipt under the account's HMAC method lands: delivered is recorded and the step stays active")
    func jsonReceipt() async throws {
        try await withApplication(method: .sha512) { client, clock, store in
            let number = VonageCallbackFixture.sentNumber
            let id = try await VonageCallbackFixture.start(client, number: number)
            for status in ["accepted", "buffered", "delivered"] {
                let fields = Self.receipt("\(id):0", status: status, clock: clock, method: .sha512)
                let body = try JSONSerialization.data(withJSONObject: Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.value) }))
                #expect(try await client.send("POST", Self.url, body: body).status == 204, "\(status)")
            }
            let md5hash = Self.receipt("\(id):0", status: "failed", clock: clock)
            #expect(try await client.send("POST", Self.url, body: Self.form(md5hash), headers: Self.formHeaders).status == 401)
            let events = try await store.events(id: id, after: 0, limit: 100).map(\.label)
            #expect(events.filter { $0 == "provider:status" }.count == 2)
            #expect(events.contains("provider:delivered"))
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }
}
