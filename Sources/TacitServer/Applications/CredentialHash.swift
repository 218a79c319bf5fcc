import TacitCrypto

/// What an application's drop-in secrets are stored as. Like `APIKeyHash`, not keyed from
/// the key ring: a lookup needs the same hash for as long as the application lives, and
/// each secret has at least 95 random bits, so its hash can't be inverted or guessed
/// offline. Each face hashes with a purpose of its own, which keeps the kinds apart.
public enum CredentialHash {
    static let version: UInt8 = 1

    public static func of(_ secret: String, purpose: String) -> [UInt8] {
        [version] + SHA256.hash(Array("tacit:\(purpose):".utf8) + Array(secret.utf8))
    }

    /// What a secret is compared with when no application has the public id: a hash no
    /// secret has, so the unknown id takes the same hash and comparison as a known one.
    static let absent: [UInt8] = [0] + [UInt8](repeating: 0, count: 32)
}
