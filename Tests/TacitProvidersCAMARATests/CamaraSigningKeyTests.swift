import Foundation
import Testing
import TacitCrypto
import TacitTesting
@testable import TacitProvidersCAMARA

/// The assertion key: RSA signs RS256, P-256 signs ES256 as JWS writes it (r ‖ s), checked
/// by the openssl command against the public half.
@Suite("CAMARA signing keys")
struct CamaraSigningKeyTests {
    @Test("a P-256 key signs ES256 as 64 bytes of r and s that openssl verifies against its public key")
    func es256() async throws {
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        try await keys.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.key"])
        try await keys.openssl(["pkey", "-in", "ec.key", "-pubout", "-out", "ec.pub"])
        let key = try CamaraSigningKey(pem: try keys.read("ec.key"))
        #expect(key.algorithm == "ES256")
        let signature = try key.sign(Array("header.claims".utf8))
        #expect(signature.count == 64)
        try Data(Self.der(signature)).write(to: keys.directory.appendingPathComponent("sig.der"))
        try Data("header.claims".utf8).write(to: keys.directory.appendingPathComponent("input"))
        // openssl exits non-zero, and this throws, when the signature does not verify.
        try await keys.openssl(["dgst", "-sha256", "-verify", "ec.pub", "-signature", "sig.der", "input"])
    }

    @Test("an RSA key signs RS256")
    func rs256() async throws {
        let key = try CamaraSigningKey(pem: try await OpenSSLKeys.shared().privatePEM)
        #expect(key.algorithm == "RS256")
    }

    @Test("an EC key on another curve is refused")
    func otherCurve() async throws {
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        try await keys.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "p384.key"])
        #expect(throws: CryptoError.self) { try CamaraSigningKey(pem: try keys.read("p384.key")) }
    }

    @Test("DER integers with a sign byte or fewer than 32 bytes are laid out left-padded to 32 bytes each")
    func derToRaw() {
        let r = [UInt8](repeating: 0xAB, count: 32), s = [UInt8](repeating: 0x01, count: 31)
        let der: [UInt8] = [0x30, 2 + 33 + 2 + 31, 0x02, 33, 0x00] + r + [0x02, 31] + s
        #expect(CamaraECKey.raw(fromDER: der) == r + [0x00] + s)
        #expect(CamaraECKey.raw(fromDER: Array(der.dropLast())) == nil)
    }

    /// `r ‖ s` back to the DER openssl reads.
    static func der(_ raw: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return [0x30, UInt8(body.count)] + body
    }
}
