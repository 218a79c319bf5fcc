#if os(Linux)
import Synchronization

/// A transport's OpenSSL context, made on first use and kept: loading the system's trust
/// store costs tens of milliseconds of CPU, too much to pay again on every carrier hop.
/// A context that could not be made is not kept, so the next exchange tries again.
final class TLSContextCache: Sendable {
    private let trust: [CertificateAuthority]
    private let made = Mutex<TLSClientContext?>(nil)

    init(trusting trust: [CertificateAuthority]) {
        self.trust = trust
    }

    func context() throws -> TLSClientContext {
        try made.withLock { made in
            if let made { return made }
            let context = try TLSClientContext(trusting: trust)
            made = context
            return context
        }
    }
}
#endif
