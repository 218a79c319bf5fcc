/// A certificate authority a transport trusts besides the system's trust store: a test
/// CA, or a private one. Each is PEM, one certificate or several.
public enum CertificateAuthority: Sendable, Equatable {
    /// The PEM text itself.
    case pem(String)
    /// A PEM file, read when a TLS connection is set up.
    case pemFile(String)
}
