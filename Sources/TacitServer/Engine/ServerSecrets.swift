import Foundation
import TacitCrypto
import TacitStore

/// Keys derived from one master secret: configured (`TACIT_SECRET`), or generated on
/// first start and kept in the store so every instance and restart agrees on it.
public struct ServerSecrets: Sendable {
    let codeKey: [UInt8]
    /// Numbers at rest: sealed, and indexed for look-ups.
    public let fieldProtection: SealedFields
    private let codeMAC: HMAC.SHA256Key
    private let tokenMAC: HMAC.SHA256Key

    public init(master: [UInt8]) {
        func derive(_ purpose: String) -> [UInt8] { HMAC.sha256(key: master, message: Array("tacit:\(purpose)".utf8)) }
        codeKey = derive("code")
        fieldProtection = SealedFields(sealKey: derive("seal"), indexKey: derive("index"))
        codeMAC = HMAC.SHA256Key(codeKey)
        tokenMAC = HMAC.SHA256Key(derive("token"))
    }

    /// The configured secret, or the store's, created when missing.
    public static func load(configured: String?, store: any VerificationStore) async throws -> ServerSecrets {
        if let configured, !configured.isEmpty { return ServerSecrets(master: SHA256.hash(configured)) }
        let master = try await store.setSettingIfAbsent("master_secret", SecureRandom.bytes(32))
        return ServerSecrets(master: master)
    }

    /// The keyed hash a code is stored as, bound to its verification and step.
    public func codeHash(_ code: String, verificationId: String, step: Int) throws(CryptoError) -> [UInt8] {
        try codeMAC.authenticate(Array("\(verificationId):\(step):\(code)".utf8))
    }

    /// The keyed hash a token (client token, API key) is stored and looked up as.
    public func tokenHash(_ token: String) throws(CryptoError) -> [UInt8] {
        try tokenMAC.authenticate(Array(token.utf8))
    }
}

/// Phone numbers at rest: AES-256-GCM sealed, looked up by an HMAC index.
public struct SealedFields: FieldProtection {
    let cipher: AESGCM
    let indexMAC: HMAC.SHA256Key

    init(sealKey: [UInt8], indexKey: [UInt8]) {
        cipher = AESGCM(key: sealKey)
        indexMAC = HMAC.SHA256Key(indexKey)
    }

    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] { try cipher.seal(plaintext) }
    public func open(_ sealed: [UInt8]) throws -> [UInt8] { try cipher.open(sealed) }
    public func index(_ value: String) throws -> String { Hex.encode(try indexMAC.authenticate(Array(value.utf8))) }
}
