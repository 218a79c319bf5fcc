import Foundation
import Synchronization
import TacitCrypto

/// What the silent flow needs besides the runner: its own key (derived from the
/// server's master secret), and the URL devices reach this server at (known only once
/// it listens). Checking a provider's answer is the provider's verdict reader's job.
public final class SilentKeys: Sendable {
    /// Seals check tokens; keyed from the master secret.
    let checkCipher: AESGCM
    /// Signs a check's latch; the same key as `checkCipher`.
    let latchMAC: HMAC.SHA256Key
    /// Tags the cookie that binds a check's verdict to the device that opened it.
    let binding: DeviceBinding
    private let base = Mutex("http://127.0.0.1")

    init(secrets: ServerSecrets) {
        let checkKey = HMAC.sha256(key: secrets.codeKey, message: Array("tacit:check_url".utf8))
        checkCipher = AESGCM(key: checkKey)
        latchMAC = HMAC.SHA256Key(checkKey)
        binding = DeviceBinding(
            mac: HMAC.SHA256Key(HMAC.sha256(key: checkKey, message: Array("tacit:check_url:device".utf8))))
    }

    public internal(set) var baseURL: String {
        get { base.withLock { $0 } }
        set { base.withLock { $0 = newValue } }
    }
}
