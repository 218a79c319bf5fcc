import TacitCrypto
import TacitStore

/// Phone numbers and stored replies at rest: AES-256-GCM sealed under the newest key,
/// looked up by an HMAC index. A sealed field starts with the id of the key that sealed
/// it, so it opens under that key after a rotation; fields sealed before ids existed
/// (no prefix) are tried under every key.
public struct SealedFields: FieldProtection {
    static let marker: [UInt8] = [0xA7, 0x01]
    static let headerLength = marker.count + 8
    let keys: [ServerSecrets.Derived]

    init(_ keys: [ServerSecrets.Derived]) { self.keys = keys }

    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        Self.marker + keys[0].id + (try keys[0].cipher.seal(plaintext))
    }

    public func open(_ sealed: [UInt8]) throws -> [UInt8] {
        if sealed.count > Self.headerLength, Array(sealed.prefix(2)) == Self.marker,
           let owner = keys.first(where: { $0.id[...] == sealed[2..<Self.headerLength] }) {
            return try owner.cipher.open(Array(sealed.dropFirst(Self.headerLength)))
        }
        var failure: any Error = StoreError.backend("no key opens the sealed field")
        for key in keys {
            do {
                return try key.cipher.open(sealed)
            } catch let error as CryptoError {
                throw error
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// What every field sealed under the newest key starts with (`tacit keys reseal`
    /// leaves those alone).
    public var currentHeader: [UInt8] { Self.marker + keys[0].id }

    public func index(_ value: String) throws -> String {
        Hex.encode(try keys[0].indexMAC.authenticate(Array(value.utf8)))
    }

    public func indexes(_ value: String) throws -> [String] {
        try keys.map { key in Hex.encode(try key.indexMAC.authenticate(Array(value.utf8))) }
    }
}
