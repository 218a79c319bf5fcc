import Foundation
import Testing
import TacitCrypto
import TacitTesting

@Suite("JWT RS256 over libcrypto, against keys made by openssl")
struct RS256Tests {
    static let claims: JWT.Claims = ["application_id": "0b3e6a4f-5c2d-4e1f-9a8b-7c6d5e4f3a2b", "iat": 1_796_111_398,
                                     "exp": 1_796_112_298, "jti": "7694307c-2b1a-4c3d-8e9f-0a1b2c3d4e5f"]
    static let issued = Date(timeIntervalSince1970: 1_796_111_398)

    /// A key pair and a token made by Vonage's Python SDK (vonage-jwt 1.1.5, `generate_application_jwt`
    /// with these `iat` and `jti`): the SDK's token must verify here.
    static let sdkPublicKey = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApTrsJ3StVH6Aqc7wwXXY
        5/IW1v4dtQfTzWhP5mvbaInToBZqZhVkHTk9lkDwAkoH/UvH4qEYCW9XvPlehuD5
        ZqbnOjela19M2W51/P98U36EO9OeXXYmnkp+sGaHzOSMll7ws0MoqUrQKLdMc+JH
        7GEvFrydeAJK0ruz5irepEFyGI/3Cya0Dcgd2OmNAVca27R0m/7QzsFmsyerumhW
        lP1wmY5/2Viu4mdQ9n2zSowVmI27lzFY20UQUBgvg/JFgVtyCr1PAx2L4g9durCg
        7XU/yP/eGEF9GaKwIu6eH1p+QZ5gU4LoIGUH9lBg5NDc96JXgM0phmpiu3qC4Mkp
        cwIDAQAB
        -----END PUBLIC KEY-----
        """
    static let sdkToken = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpYXQiOjE3OTYxMTEzOTg"
        + "sImp0aSI6Ijc2OTQzMDdjLTJiMWEtNGMzZC04ZTlmLTBhMWIyYzNkNGU1ZiIsImFwcGxpY2F0aW9uX2lkIjoiMGIzZTZhNGYtNWM"
        + "yZC00ZTFmLTlhOGItN2M2ZDVlNGYzYTJiIiwiZXhwIjoxNzk2MTEyMjk4fQ.YfMBOiBmEx0DXMdoNDhXxwG_hKx9g80g-ii5Lkt4"
        + "4Md4DelnYftY3Fin7z7n8UYfDpAL0LqYhY-P11JQv_1hOCaZFtGm91yt-qKrkds1vvz7uoVXCt7cvAx2Bwjv9fpsNqlo63SfD1HS"
        + "RoK7JgdYfHC4ccW6K4uvBeihUI5c9155cziL7FFgU0YTEz4SDH4JdiF3tuN_ofFQS80TLbGiLRePK4tNNpjBljPLJtriY5b2SSRI"
        + "N2FU9IBOnsgvw2l526_8_Xr532VcSTi7_Mhb-pZ64eG6JOcVE9tZUZITFMWsxy1VkKnomI9n1sa7phNBZrcSUHiMm0L0nK5vJTIE"
        + "gg"

    func withKeys(_ body: (OpenSSLKeys) async throws -> Void) async throws {
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        try await body(keys)
    }

    @Test("a token signed with a PKCS#8 key verifies with its SPKI public key and gives back its claims")
    func roundTrip() async throws {
        try await withKeys { keys in
            let pair = try await OpenSSLKeys.shared()
            let token = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: pair.privatePEM))
            #expect(token.hasPrefix("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9."))
            let claims = try JWT.verify(token: token, publicKey: try RSAPublicKey(pem: pair.publicPEM), now: Self.issued + 10)
            #expect(claims == Self.claims)
        }
    }

    @Test("the signature is the one openssl dgst -sha256 -sign makes over the same signing input")
    func matchesOpenSSL() async throws {
        try await withKeys { keys in
            let pair = try await OpenSSLKeys.shared()
            try pair.privatePEM.write(to: keys.directory.appendingPathComponent("app.key"), atomically: true, encoding: .utf8)
            let token = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: pair.privatePEM))
            let parts = token.split(separator: ".")
            let theirs = try await keys.openssl(["dgst", "-sha256", "-sign", "app.key"], input: Array("\(parts[0]).\(parts[1])".utf8))
            #expect(Base64.urlEncode(theirs) == String(parts[2]))
        }
    }

    @Test("a PKCS#1 key (BEGIN RSA PRIVATE KEY) reads and signs as its PKCS#8 form does")
    func pkcs1() async throws {
        try await withKeys { keys in
            let pair = try await OpenSSLKeys.shared()
            try pair.privatePEM.write(to: keys.directory.appendingPathComponent("app.key"), atomically: true, encoding: .utf8)
            try await keys.openssl(["pkey", "-in", "app.key", "-traditional", "-out", "app.pkcs1"])
            let pkcs1 = try keys.read("app.pkcs1")
            #expect(pkcs1.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
            let one = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: pkcs1))
            let eight = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: pair.privatePEM))
            #expect(one == eight)
        }
    }

    @Test("another key's signature and a tampered payload are bad signatures")
    func badSignature() async throws {
        try await withKeys { keys in
            let mine = try await OpenSSLKeys.shared(), theirs = try await keys.rsa("theirs.key")
            let token = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: theirs.privatePEM))
            let key = try RSAPublicKey(pem: mine.publicPEM)
            #expect(throws: JWTError.badSignature) { try JWT.verify(token: token, publicKey: key, now: Self.issued) }
            var parts = try JWT.sign(claims: Self.claims, privateKey: try RSAPrivateKey(pem: mine.privatePEM))
                .split(separator: ".").map(String.init)
            parts[1] = Base64.urlEncode(Array(#"{"application_id":"other","exp":1796112298}"#.utf8))
            #expect(throws: JWTError.badSignature) { try JWT.verify(token: parts.joined(separator: "."), publicKey: key, now: Self.issued) }
        }
    }

    @Test("an HS256 token keyed with the public key's PEM is refused: the header never picks the algorithm")
    func algorithmConfusion() async throws {
        try await withKeys { keys in
            let pair = try await OpenSSLKeys.shared()
            let forged = JWT.sign(claims: Self.claims, secret: Array(pair.publicPEM.utf8))
            #expect(throws: JWTError.unsupportedRS256) {
                try JWT.verify(token: forged, publicKey: try RSAPublicKey(pem: pair.publicPEM), now: Self.issued)
            }
        }
    }

    @Test("an expired token, and one whose nbf is ahead, are refused")
    func times() async throws {
        try await withKeys { keys in
            let pair = try await OpenSSLKeys.shared()
            let signer = try RSAPrivateKey(pem: pair.privatePEM), key = try RSAPublicKey(pem: pair.publicPEM)
            let token = try JWT.sign(claims: Self.claims, privateKey: signer)
            #expect(throws: JWTError.expired) { try JWT.verify(token: token, publicKey: key, now: Self.issued + 900) }
            var early = Self.claims
            early["nbf"] = .int(1_796_111_398 + 600)
            let ahead = try JWT.sign(claims: early, privateKey: signer)
            #expect(throws: JWTError.stale) { try JWT.verify(token: ahead, publicKey: key, now: Self.issued) }
        }
    }

    @Test("a token made by Vonage's SDK verifies with its public key, and not after its exp")
    func sdkToken() async throws {
        let key = try RSAPublicKey(pem: Self.sdkPublicKey)
        let claims = try JWT.verify(token: Self.sdkToken, publicKey: key, now: Self.issued + 60)
        #expect(claims == Self.claims)
        #expect(throws: JWTError.expired) { try JWT.verify(token: Self.sdkToken, publicKey: key, now: Self.issued + 900) }
    }

    @Test("an EC key, an encrypted key, a short RSA key and text that is not PEM are refused without their contents")
    func refusedKeys() async throws {
        try await withKeys { keys in
            try await keys.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.key"])
            try await keys.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-aes256", "-pass", "pass:sesame",
                              "-out", "locked.key"])
            let short = try await keys.rsa("short.key", bits: 1024)
            let refusals: [(String, String)] = [
                (try keys.read("ec.key"), "RSA: the key is not an RSA key"),
                (try keys.read("locked.key"), "RSA: not a PEM private key"),
                (short.privatePEM, "RSA: the key is shorter than 2048 bits"),
                ("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n", "RSA: not a PEM private key"),
            ]
            for (pem, words) in refusals {
                #expect(throws: CryptoError.keySetup(words)) { try RSAPrivateKey(pem: pem) }
            }
            #expect(throws: CryptoError.keySetup("RSA: not a PEM public key")) { try RSAPublicKey(pem: short.privatePEM) }
        }
    }
}
