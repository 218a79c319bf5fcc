import Foundation
import TacitCrypto

/// The private key Tacit's client assertions (`private_key_jwt`) are signed with, and the
/// JWS algorithm that goes with it: RS256 for an RSA key, ES256 for a P-256 one, as the
/// operator registered its public half.
public struct CamaraSigningKey: Sendable {
    enum Key: Sendable {
        case rsa(RSAPrivateKey)
        case ec(CamaraECKey)
    }

    let key: Key
    /// A digest of the key file, never the key: what per-flow secrets are derived from.
    let fingerprint: [UInt8]

    /// - Throws: ``CryptoError`` when `pem` holds neither an RSA key of 2048 bits or more
    ///   nor a P-256 EC key, unencrypted.
    public init(pem: String) throws(CryptoError) {
        if let rsa = try? RSAPrivateKey(pem: pem) {
            key = .rsa(rsa)
        } else {
            key = .ec(try CamaraECKey(pem: pem))
        }
        fingerprint = SHA256.hash(Array("tacit:camara:key:".utf8) + Array(pem.utf8))
    }

    /// The public half of an RSA key, as the operator registers it (the virtual operator in
    /// `--dev`); nil for an EC key, which the virtual operator does not take.
    public var rsaPublicKey: RSAPublicKey? {
        guard case .rsa(let rsa) = key else { return nil }
        return try? rsa.publicKey()
    }

    /// The `alg` of every assertion.
    var algorithm: String {
        switch key {
        case .rsa: "RS256"
        case .ec: "ES256"
        }
    }

    func sign(_ input: [UInt8]) throws(CryptoError) -> [UInt8] {
        switch key {
        case .rsa(let rsa): try rsa.sign(input)
        case .ec(let ec): try ec.sign(input)
        }
    }
}
