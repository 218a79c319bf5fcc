import Foundation
import Testing
import TacitCrypto

@Suite("JWT HS256")
struct JWTTests {
    static let secret = Array("tacit-test-secret-0123456789abcdef".utf8)
    static let claims: JWT.Claims = ["iat": 1_767_225_600, "payload_hash": "abc123", "sub": "request-1"]
    static let issued = Date(timeIntervalSince1970: 1_767_225_600)
    // Computed independently with Python's hmac, base64 and json (sorted keys, compact).
    static let vector = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        + ".eyJpYXQiOjE3NjcyMjU2MDAsInBheWxvYWRfaGFzaCI6ImFiYzEyMyIsInN1YiI6InJlcXVlc3QtMSJ9"
        + ".9AqEXxs9QSmJOc8Iqbg66XpZnED2hSITR6mIk7IcMQ0"

    @Test("signing gives the independently computed token")
    func signMatchesVector() {
        #expect(JWT.sign(claims: Self.claims, secret: Self.secret) == Self.vector)
    }

    @Test("verifying the known token returns its claims")
    func verifyVector() throws {
        let claims = try JWT.verify(token: Self.vector, secret: Self.secret, now: Self.issued + 10, maxAge: 60)
        #expect(claims == Self.claims)
    }

    @Test("a wrong secret or a tampered payload is a bad signature")
    func badSignature() {
        #expect(throws: JWTError.badSignature) {
            try JWT.verify(token: Self.vector, secret: Array("other".utf8), now: Self.issued)
        }
        var parts = Self.vector.split(separator: ".").map(String.init)
        parts[1] = Base64.urlEncode(Array(#"{"iat":1767225600,"payload_hash":"evil","sub":"request-1"}"#.utf8))
        #expect(throws: JWTError.badSignature) {
            try JWT.verify(token: parts.joined(separator: "."), secret: Self.secret, now: Self.issued)
        }
    }

    @Test("alg none and other algorithms are refused, even with an empty signature")
    func algorithmNone() {
        let none = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0"
            + ".eyJpYXQiOjE3NjcyMjU2MDAsInBheWxvYWRfaGFzaCI6ImFiYzEyMyIsInN1YiI6InJlcXVlc3QtMSJ9."
        #expect(throws: JWTError.unsupportedAlgorithm) {
            try JWT.verify(token: none, secret: Self.secret, now: Self.issued)
        }
        let rs256 = Base64.urlEncode(Array(#"{"alg":"RS256"}"#.utf8)) + "." + Self.vector.split(separator: ".")[1] + ".AA"
        #expect(throws: JWTError.unsupportedAlgorithm) {
            try JWT.verify(token: rs256, secret: Self.secret, now: Self.issued)
        }
    }

    @Test("malformed tokens are a bad format", arguments: ["", "a.b", "a.b.c.d", "!!.e30.AA", "e30.e30.!!"])
    func badFormat(token: String) {
        #expect(throws: JWTError.badFormat) {
            try JWT.verify(token: token, secret: Self.secret, now: Self.issued)
        }
    }

    @Test("an iat older than maxAge, in the future, or missing is stale")
    func staleIssuedAt() {
        #expect(throws: JWTError.stale) {
            try JWT.verify(token: Self.vector, secret: Self.secret, now: Self.issued + 301, maxAge: 300)
        }
        #expect(throws: JWTError.stale) {
            try JWT.verify(token: Self.vector, secret: Self.secret, now: Self.issued - 600, maxAge: 300)
        }
        let noIat = JWT.sign(claims: ["sub": "x"], secret: Self.secret)
        #expect(throws: JWTError.stale) {
            try JWT.verify(token: noIat, secret: Self.secret, now: Self.issued, maxAge: 300)
        }
    }

    @Test("a token is refused from its exp onwards")
    func expiry() throws {
        let token = JWT.sign(claims: ["exp": 1_000], secret: Self.secret)
        _ = try JWT.verify(token: token, secret: Self.secret, now: Date(timeIntervalSince1970: 999))
        #expect(throws: JWTError.expired) {
            try JWT.verify(token: token, secret: Self.secret, now: Date(timeIntervalSince1970: 1_000))
        }
    }

    @Test("nested claims survive a round trip")
    func roundTrip() throws {
        let claims: JWT.Claims = ["a": .array([1, "two", true, .null]), "o": .object(["k": .double(1.5)])]
        let token = JWT.sign(claims: claims, secret: Self.secret)
        #expect(try JWT.verify(token: token, secret: Self.secret, now: Self.issued) == claims)
    }

    @Test("an error's description never contains the token")
    func descriptionIsClean() {
        do {
            _ = try JWT.verify(token: Self.vector, secret: [9], now: Self.issued)
            Issue.record("expected a failure")
        } catch {
            #expect(!error.description.contains("eyJ"))
            #expect(error.code == "bad_signature")
        }
    }
}
