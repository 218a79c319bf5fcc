#if canImport(Network)
import Foundation
import Network
import Security

/// `https://` on Apple platforms: the Network framework's own TLS, which sends SNI and
/// checks the chain against the system's trust and the name against the endpoint's host.
/// Only the connection's parameters differ from `http://`; the exchange is the same.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension NetworkCellularTransport {
    /// TCP for `http://`, TLS over TCP for `https://`, cellular only either way.
    static func parameters(for target: HTTPTarget) -> NWParameters {
        let parameters = target.isSecure
            ? NWParameters(tls: NWProtocolTLS.Options(), tcp: NWProtocolTCP.Options())
            : NWParameters.tcp
        parameters.requiredInterfaceType = .cellular
        return parameters
    }

    /// The transport's error for a connection that failed or could not start.
    static func failure(_ error: NWError) -> CellularTransportError {
        guard case .tls(let status) = error else {
            return CellularTransportError(.connectionFailed, "no cellular connection")
        }
        return untrustedStatuses.contains(status)
            ? CellularTransportError(.untrustedCertificate, "the certificate was refused (OSStatus \(status))")
            : CellularTransportError(.tlsFailed, "the TLS handshake failed (OSStatus \(status))")
    }

    /// Secure Transport's statuses for a certificate that failed verification.
    private static let untrustedStatuses: Set<OSStatus> = [
        errSSLBadCert, errSSLXCertChainInvalid, errSSLUnknownRootCert, errSSLNoRootCert, errSSLCertExpired,
        errSSLCertNotYetValid, errSSLHostNameMismatch, errSSLPeerCertUnknown, errSSLPeerCertExpired,
    ]
}
#endif
