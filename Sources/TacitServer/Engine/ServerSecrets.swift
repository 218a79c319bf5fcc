import Foundation
import TacitCrypto
import TacitStore

/// Keys derived from the key ring's master keys. New data is sealed and hashed with the
/// newest; what older keys sealed or hashed still opens and matches until it is resealed
/// or ends.
public struct ServerSecrets: Sendable {
    /// Per master key, newest first.
    struct Derived: Sendable {
        let id: [UInt8]
        let codeKey: [UInt8]
        let cipher: AESGCM
        let indexMAC: HMAC.SHA256Key
        let codeMAC: HMAC.SHA256Key
        let tokenMAC: HMAC.SHA256Key

        init(_ master: MasterKey) {
            func derive(_ purpose: String) -> [UInt8] {
                HMAC.sha256(key: master.bytes, message: Array("tacit:\(purpose)".utf8))
            }
            id = master.id
            codeKey = derive("code")
            cipher = AESGCM(key: derive("seal"))
            indexMAC = HMAC.SHA256Key(derive("index"))
            codeMAC = HMAC.SHA256Key(codeKey)
            tokenMAC = HMAC.SHA256Key(derive("token"))
        }
    }

    let derived: [Derived]
    /// The newest key's code key, which the silent flow derives its own keys from.
    var codeKey: [UInt8] { derived[0].codeKey }
    /// Numbers and stored replies at rest: sealed, and indexed for look-ups.
    public let fieldProtection: SealedFields

    public init(ring: KeyRing) {
        derived = ring.keys.map(Derived.init)
        fieldProtection = SealedFields(derived)
    }

    /// A ring of one key; tests use it.
    public init(master: [UInt8]) {
        self.init(ring: KeyRing([MasterKey(master)], source: .ephemeral))
    }

    /// The key ring `configuration` names, checked against `store`; see `KeyRing.load`.
    public static func load(configuration: ServerConfiguration,
                            store: any VerificationStore) async throws -> ServerSecrets {
        ServerSecrets(ring: try await KeyRing.load(configuration: configuration, store: store))
    }

    /// The keyed hash a code is stored as, bound to its verification and step.
    public func codeHash(_ code: String, verificationId: String, step: Int) throws(CryptoError) -> [UInt8] {
        try derived[0].codeMAC.authenticate(Self.codeMessage(code, verificationId, step))
    }

    /// Whether `code` is the one `stored` was made from, under any key of the ring. Every
    /// key is tried, so the work doesn't say which matched.
    public func codeMatches(_ stored: [UInt8], code: String, verificationId: String,
                            step: Int) throws(CryptoError) -> Bool {
        var matches = false
        for keys in derived
        where ConstantTime.equals(try keys.codeMAC.authenticate(Self.codeMessage(code, verificationId, step)), stored) {
            matches = true
        }
        return matches
    }

    private static func codeMessage(_ code: String, _ verificationId: String, _ step: Int) -> [UInt8] {
        Array("\(verificationId):\(step):\(code)".utf8)
    }

    /// The keyed hash a client token is stored as.
    public func tokenHash(_ token: String) throws(CryptoError) -> [UInt8] {
        try derived[0].tokenMAC.authenticate(Array(token.utf8))
    }

    /// The token's keyed hash under every key of the ring, newest first.
    public func tokenHashes(_ token: String) throws(CryptoError) -> [[UInt8]] {
        var hashes: [[UInt8]] = []
        for keys in derived { hashes.append(try keys.tokenMAC.authenticate(Array(token.utf8))) }
        return hashes
    }
}
