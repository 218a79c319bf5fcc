import Testing
import TacitCrypto

@Suite("Tokens and secrets")
struct TokenTests {
    @Test("tokens carry their prefix and 32 random bytes in URL-safe base64")
    func prefixedToken() throws {
        let token = Token.generate(prefix: "ct_")
        #expect(token.hasPrefix("ct_"))
        let body = String(token.dropFirst(3))
        #expect(body.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try #require(Base64.urlDecode(body)).count == 32)
    }

    @Test("tokens don't repeat")
    func unique() {
        #expect(Token.generate(prefix: "tk_") != Token.generate(prefix: "tk_"))
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
    }

    @Test("webhook secrets are whsec_ plus standard base64 of at least 24 bytes")
    func webhookSecret() throws {
        let secret = Token.webhookSecret()
        #expect(secret.hasPrefix("whsec_"))
        let key = try #require(Base64.decode(String(secret.dropFirst(6))))
        #expect(key.count == 32)
        #expect(try #require(Base64.decode(String(Token.webhookSecret(bytes: 24).dropFirst(6)))).count == 24)
    }
}
