#if os(Linux)
import CSSL
import Foundation

/// One OpenSSL client context: TLS 1.2 or later, peer verification on, the system's trust
/// store and any extra authorities loaded. Owns its `SSL_CTX` and frees it in `deinit`.
final class TLSClientContext: @unchecked Sendable {
    // Safe to share: the context is configured in init and only read afterwards, and
    // OpenSSL allows one SSL_CTX to make sessions on several threads.
    let context: OpaquePointer

    init(trusting extra: [CertificateAuthority]) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("no TLS context") }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // The system's hashed directory (/etc/ssl/certs, kept by ca-certificates, or
        // SSL_CERT_DIR) is read one issuer at a time when a chain needs it; the bundle file
        // would be parsed whole, some 150 certificates, for every context. A bundle named by
        // SSL_CERT_FILE is still honoured.
        guard SSL_CTX_set_default_verify_dir(context) == 1 else {
            throw Self.failure("the system trust store could not be read")
        }
        if ProcessInfo.processInfo.environment["SSL_CERT_FILE"] != nil, SSL_CTX_set_default_verify_file(context) != 1 {
            throw Self.failure("the SSL_CERT_FILE bundle could not be read")
        }
        for authority in extra { try add(authority) }
    }

    deinit { SSL_CTX_free(context) }

    private func add(_ authority: CertificateAuthority) throws {
        let pem: String
        switch authority {
        case .pem(let text): pem = text
        case .pemFile(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CellularTransportError(.unavailable, "the extra certificate authority file cannot be read")
            }
            pem = String(decoding: data, as: UTF8.self)
        }
        let store = SSL_CTX_get_cert_store(context)
        let added = Array(pem.utf8).withUnsafeBytes { buffer -> Int in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return 0 }
            defer { BIO_free(bio) }
            var count = 0
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                if X509_STORE_add_cert(store, certificate) == 1 { count += 1 }
                X509_free(certificate)
            }
            return count
        }
        ERR_clear_error()
        guard added > 0 else {
            throw CellularTransportError(.unavailable, "the extra certificate authority is not a PEM certificate")
        }
    }

    /// The oldest queued OpenSSL error as a short sentence, after `what`; the queue is cleared.
    static func failure(_ what: String) -> CellularTransportError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else {
            return CellularTransportError(.tlsFailed, what)
        }
        return CellularTransportError(.tlsFailed, "\(what): \(String(cString: reason))")
    }
}
#endif
