import TacitCrypto

/// What an API key is stored and looked up as. Unlike a client token's hash it is not
/// keyed from the key ring: a lookup needs the same hash for as long as the key lives,
/// which is longer than any master key, and the 256 random bits of a `tk_` key already
/// make a hash of it impossible to invert or guess offline. A leading version byte tells
/// these from the ring-keyed hashes of keys made before, which are still looked up
/// under each key of the ring.
enum APIKeyHash {
    static let version: UInt8 = 1

    static func of(_ key: String) -> [UInt8] {
        [version] + SHA256.hash(Array("tacit:api-key:".utf8) + Array(key.utf8))
    }

    /// The hashes `key` may be stored under, newest form first.
    static func candidates(_ key: String, secrets: ServerSecrets) throws -> [[UInt8]] {
        [of(key)] + (try secrets.tokenHashes(key))
    }
}
