#if canImport(Glibc)
import Glibc
#endif

/// The certificate chain and private key an `HTTPServer` serves HTTPS with, both PEM.
///
/// The server only hands them to libmicrohttpd, which reads them through GnuTLS when it
/// starts; checking that they parse and belong together is the caller's job, so that a
/// bad file is reported by the setting that named it. The description never shows the key.
public struct TLSCredentials: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The server's certificate first, then any intermediates.
    public var certificateChainPEM: String
    /// The private key matching the first certificate, unencrypted.
    public var privateKeyPEM: String

    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    public var description: String { "TLSCredentials(certificate chain, private key hidden)" }

    /// No children, so `dump` and reflection-based printing can't reach the key either.
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// NUL-terminated copies of the credentials that outlive the daemon: libmicrohttpd is
/// given pointers, not copies, so they must stay put for as long as it runs.
final class TLSBuffers: @unchecked Sendable {
    // Safe to share: the pointers are written once, in init, and only read afterwards.
    let certificate: UnsafeMutablePointer<CChar>
    let privateKey: UnsafeMutablePointer<CChar>

    init(_ credentials: TLSCredentials) {
        certificate = strdup(credentials.certificateChainPEM)
        privateKey = strdup(credentials.privateKeyPEM)
    }

    deinit {
        // The key's bytes are wiped before the memory goes back to the allocator.
        memset(privateKey, 0, strlen(privateKey))
        free(certificate)
        free(privateKey)
    }
}
