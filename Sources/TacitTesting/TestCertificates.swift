import CCrypto
import TacitHTTP

/// Certificates for TLS tests, made in memory with libcrypto when first used: a test CA,
/// and servers it signs for this machine's loopback names, for another host, and one that
/// expired; plus a server signed by a CA no test trusts. P-256 keys, so making them is quick.
public struct TestCertificates: Sendable {
    /// A certificate and its private key, both PEM.
    public struct Identity: Sendable {
        public let certificatePEM: String
        public let privateKeyPEM: String

        /// The certificate (then the CA's, so a client sees the whole chain) and the key.
        public var credentials: TLSCredentials {
            TLSCredentials(certificateChainPEM: chainPEM, privateKeyPEM: privateKeyPEM)
        }
        let chainPEM: String
    }

    /// The test CA's certificate: the one extra authority a test client trusts.
    public let authorityPEM: String
    /// For `127.0.0.1`, `::1` and `localhost`, signed by the test CA.
    public let loopback: Identity
    /// For `elsewhere.test` only, signed by the test CA.
    public let otherHost: Identity
    /// For the loopback names, signed by the test CA, expired since yesterday.
    public let expired: Identity
    /// For the loopback names, signed by a CA that is not the test CA.
    public let unknownAuthority: Identity

    /// Made once per test process.
    public static let shared = TestCertificates()

    static let loopbackNames = "IP:127.0.0.1,IP:::1,DNS:localhost"

    private init() {
        let authority = CertificateMaker.authority(named: "Tacit Test CA")
        let stranger = CertificateMaker.authority(named: "Unknown Test CA")
        authorityPEM = authority.certificatePEM
        loopback = authority.issue(commonName: "127.0.0.1", names: Self.loopbackNames)
        otherHost = authority.issue(commonName: "elsewhere.test", names: "DNS:elsewhere.test")
        expired = authority.issue(commonName: "127.0.0.1", names: Self.loopbackNames, validDays: -2 ... -1)
        unknownAuthority = stranger.issue(commonName: "127.0.0.1", names: Self.loopbackNames)
    }
}
