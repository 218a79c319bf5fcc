import Foundation
import Synchronization
import TacitCrypto

/// What the silent flow needs besides the runner: its own key (derived from the
/// server's master secret), the key the operator signs its answers with, and the URL
/// devices reach this server at (known only once it listens).
final class SilentKeys: Sendable {
    let checkKey: [UInt8]
    let operatorKey: [UInt8]
    private let base = Mutex("http://127.0.0.1")

    init(secrets: ServerSecrets, operatorKey: [UInt8]) {
        checkKey = HMAC.sha256(key: secrets.codeKey, message: Array("tacit:check_url".utf8))
        self.operatorKey = operatorKey
    }

    var baseURL: String {
        get { base.withLock { $0 } }
        set { base.withLock { $0 = newValue } }
    }
}
