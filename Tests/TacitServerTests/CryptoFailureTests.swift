import Synchronization
import Testing
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting

/// Field protection that fails as OpenSSL would when it can't set a key up, until told
/// to work again.
final class FailingProtection: FieldProtection {
    private let working = ServerSecrets(master: Array(repeating: 9, count: 32)).fieldProtection
    private let failing = Mutex(true)

    func recover() { failing.withLock { $0 = false } }

    private func check() throws {
        if failing.withLock({ $0 }) { throw CryptoError.keySetup("AES-GCM: OpenSSL could not set the key") }
    }

    func seal(_ plaintext: [UInt8]) throws -> [UInt8] { try check(); return try working.seal(plaintext) }
    func open(_ sealed: [UInt8]) throws -> [UInt8] { try check(); return try working.open(sealed) }
    func index(_ value: String) throws -> String { try check(); return try working.index(value) }
}

@Suite("A crypto failure fails the request, not the server")
struct CryptoFailureTests {
    @Test("a start whose number can't be sealed is a 503 problem, and the server answers on and starts the next")
    func sealingFailureIs503() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let protection = FailingProtection()
            app.store.protect(with: protection)
            let refused = try await client.post("/v1/verifications", json: ["phone_number": "+99012345671"])
            #expect(refused.status == 503)
            #expect(refused.type == "unavailable")
            #expect(!refused.text.contains("OpenSSL") && !refused.text.contains("99012345671"))
            #expect(try await client.get("/healthz").status == 200)
            protection.recover()
            #expect(try await client.post("/v1/verifications", json: ["phone_number": "+99012345671"]).status == 202)
        }
    }
}
