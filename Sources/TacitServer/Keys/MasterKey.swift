import TacitCrypto

/// One 32-byte master key of the key ring. Everything the server seals or hashes is
/// keyed from one of these; the store only ever sees its id and its fingerprint, both
/// keyed hashes that reveal nothing of the key.
public struct MasterKey: Sendable, Equatable {
    public let bytes: [UInt8]

    /// `bytes` must be 32 bytes.
    public init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "a master key is 32 bytes")
        self.bytes = bytes
    }

    /// The key a `TACIT_SECRET` passphrase stands for, as the server has always derived it.
    public init(secret: String) {
        self.init(SHA256.hash(secret))
    }

    /// A fresh random key.
    public static func generate() -> MasterKey { MasterKey(SecureRandom.bytes(32)) }

    /// Eight bytes that name the key in sealed fields, so opening needs no trial and error.
    public var id: [UInt8] { Array(HMAC.sha256(key: bytes, message: Array("tacit:key-id".utf8)).prefix(8)) }

    /// The key's id in hex, as the settings table and the commands show it.
    public var name: String { Hex.encode(id) }

    /// What the database keeps of a key that sealed data: enough to tell, at start, that
    /// the key is missing or wrong, and nothing to seal or open with.
    public var fingerprint: [UInt8] { HMAC.sha256(key: bytes, message: Array("tacit:key-fingerprint".utf8)) }
}
