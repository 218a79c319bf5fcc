#if os(Linux)
import CSSL
import Foundation

/// A TLS session over a connected `SocketHandle`: SNI, the certificate chain checked
/// against the context's trust, and the name checked against the host the URL named
/// (an IP literal against the certificate's IP addresses). Owns its `SSL` and frees it
/// in `deinit`.
///
/// OpenSSL reads and writes memory buffers, never the socket: this moves the bytes
/// through the socket's own calls, so every wait has the socket's deadline and cancel,
/// and a peer that went away fails a write with an error instead of a SIGPIPE.
final class TLSChannel: ByteChannel, @unchecked Sendable {
    // Safe to share: one exchange uses the session at a time, on one queue; only the
    // socket's cancel() comes from another thread, and it touches the socket alone.
    private let ssl: OpaquePointer
    /// What came from the network, for OpenSSL to read; owned by `ssl`.
    private let incoming: OpaquePointer
    /// What OpenSSL wrote, for the network; owned by `ssl`.
    private let outgoing: OpaquePointer
    private let socket: SocketHandle
    private let context: TLSClientContext

    /// Runs the handshake until `deadline`. Throws `.untrustedCertificate` when the server's
    /// certificate fails verification, `.tlsFailed` when the handshake fails otherwise.
    init(over socket: SocketHandle, host: String, context: TLSClientContext, deadline: ContinuousClock.Instant) throws {
        guard let ssl = SSL_new(context.context) else { throw TLSClientContext.failure("no TLS session") }
        let incoming = BIO_new(BIO_s_mem()), outgoing = BIO_new(BIO_s_mem())
        guard let incoming, let outgoing else {
            // BIO_free takes nil, and the session owns neither buffer yet.
            BIO_free(incoming)
            BIO_free(outgoing)
            SSL_free(ssl)
            throw TLSClientContext.failure("no TLS buffers")
        }
        // An empty buffer means "wait for more", not end of file.
        _ = BIO_ctrl(incoming, BIO_C_SET_BUF_MEM_EOF_RETURN, -1, nil)
        SSL_set_bio(ssl, incoming, outgoing)
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.socket = socket
        self.context = context
        try expect(host: host)
        try handshake(deadline: deadline)
    }

    deinit { SSL_free(ssl) }

    private func expect(host: String) throws {
        if Self.isIPLiteral(host) {
            // RFC 6066 has no SNI for addresses; the certificate must list the address itself.
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                throw TLSClientContext.failure("bad address")
            }
            return
        }
        let named = host.withCString { name in
            SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                     UnsafeMutableRawPointer(mutating: name)) == 1
                && SSL_set1_host(ssl, name) == 1
        }
        guard named else { throw TLSClientContext.failure("bad host name") }
    }

    private func handshake(deadline: ContinuousClock.Instant) throws {
        SSL_set_connect_state(ssl)
        while true {
            let result = SSL_connect(ssl)
            if result == 1 { return try flush(deadline: deadline) }
            switch try step(after: result, deadline: deadline) {
            case .again: continue
            case .closed:
                throw CellularTransportError(.tlsFailed, "the server closed the connection during the TLS handshake")
            case .failed:
                // The alert OpenSSL wrote tells the server why; it may be gone already.
                try? flush(deadline: deadline)
                let verdict = SSL_get_verify_result(ssl)
                guard verdict == Int(X509_V_OK) else {
                    ERR_clear_error()
                    throw CellularTransportError(.untrustedCertificate, Self.problem(verdict))
                }
                throw TLSClientContext.failure("the TLS handshake failed")
            }
        }
    }

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { sent += Int(n) }
            try flush(deadline: deadline)
            if n <= 0, try step(after: n, deadline: deadline) != .again {
                throw TLSClientContext.failure("the TLS connection broke")
            }
        }
    }

    func read(deadline: ContinuousClock.Instant) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { return Array(buffer[..<Int(n)]) }
            // A close_notify, or a peer that just closed (common after `Connection: close`):
            // the response parser decides whether what came is whole.
            if SSL_get_error(ssl, n) == SSL_ERROR_ZERO_RETURN { return [] }
            switch try step(after: n, deadline: deadline) {
            case .again: continue
            case .closed: return []
            case .failed: throw TLSClientContext.failure("the TLS connection broke")
            }
        }
    }

    private enum Step { case again, closed, failed }

    /// After an OpenSSL call that returned `result`: sends what it wrote, and when it
    /// needs the peer's bytes, waits for them. `.closed` when the peer closed instead.
    private func step(after result: Int32, deadline: ContinuousClock.Instant) throws -> Step {
        let error = SSL_get_error(ssl, result)
        try flush(deadline: deadline)
        switch error {
        case SSL_ERROR_WANT_WRITE: return .again
        case SSL_ERROR_WANT_READ:
            let bytes = try socket.read(deadline: deadline)
            if bytes.isEmpty { return .closed }
            _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
            return .again
        default: return .failed
        }
    }

    /// Sends everything OpenSSL has written so far.
    private func flush(deadline: ContinuousClock.Instant) throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while BIO_ctrl_pending(outgoing) > 0 {
            let n = chunk.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { return }
            try socket.write(Array(chunk[..<Int(n)]), deadline: deadline)
        }
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Why verification refused the certificate, in words that name no host.
    static func problem(_ verdict: Int) -> String {
        switch Int32(verdict) {
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return "the certificate is for another host"
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            return "the certificate is expired or not yet valid"
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
            return "the certificate's authority is not trusted"
        default:
            return "the certificate was refused: \(String(cString: X509_verify_cert_error_string(verdict)))"
        }
    }
}
#endif
