import Foundation
import TacitCrypto

/// The private key Tacit's client assertions (`private_key_jwt`) are signed with, and the
/// JWS algorithm that goes with it.
public struct CamaraSigningKey: Sendable {
    let rsa: RSAPrivateKey
    /// A digest of the key file, never the key: what per-flow secrets are derived from.
    let fingerprint: [UInt8]

    public init(pem: String) throws(CryptoError) {
        rsa = try RSAPrivateKey(pem: pem)
        fingerprint = SHA256.hash(Array("tacit:camara:key:".utf8) + Array(pem.utf8))
    }

    /// The `alg` of every assertion.
    var algorithm: String { "RS256" }

    func sign(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
        try rsa.sign(input)
    }
}
