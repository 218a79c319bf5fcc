import Foundation
import TacitCrypto
import TacitStore

/// Keys derived from one master secret: configured (`TACIT_SECRET`), or generated on
/// first start and kept in the store so every instance and restart agrees on it.
public struct ServerSecrets: Sendable {
    let codeKey: [UInt8]
    let sealKey: [UInt8]
    let indexKey: [UInt8]
    let tokenKey: [UInt8]

    public init(master: [UInt8]) {
        func derive(_ purpose: String) -> [UInt8] { HMAC.sha256(key: master, message: Array("tacit:\(purpose)".utf8)) }
        codeKey = derive("code")
        sealKey = derive("seal")
        indexKey = derive("index")
        tokenKey = derive("token")
    }

    /// The configured secret, or the store's, created when missing.
    public static func load(configured: String?, store: any VerificationStore) async throws -> ServerSecrets {
        if let configured, !configured.isEmpty { return ServerSecrets(master: SHA256.hash(configured)) }
        let master = try await store.setSettingIfAbsent("master_secret", SecureRandom.bytes(32))
        return ServerSecrets(master: master)
    }

    /// The keyed hash a code is stored as, bound to its verification and step.
    public func codeHash(_ code: String, verificationId: String, step: Int) -> [UInt8] {
        HMAC.sha256(key: codeKey, message: Array("\(verificationId):\(step):\(code)".utf8))
    }

    /// The keyed hash a token (client token, API key) is stored and looked up as.
    public func tokenHash(_ token: String) -> [UInt8] {
        HMAC.sha256(key: tokenKey, message: Array(token.utf8))
    }

    public var fieldProtection: SealedFields { SealedFields(sealKey: sealKey, indexKey: indexKey) }
}

/// Phone numbers at rest: AES-256-GCM sealed, looked up by an HMAC index.
public struct SealedFields: FieldProtection {
    let cipher: AESGCM
    let indexKey: [UInt8]

    init(sealKey: [UInt8], indexKey: [UInt8]) {
        cipher = AESGCM(key: sealKey)
        self.indexKey = indexKey
    }

    public func seal(_ plaintext: [UInt8]) -> [UInt8] { cipher.seal(plaintext) }
    public func open(_ sealed: [UInt8]) throws -> [UInt8] { try cipher.open(sealed) }
    public func index(_ value: String) -> String { Hex.encode(HMAC.sha256(key: indexKey, message: Array(value.utf8))) }
}
