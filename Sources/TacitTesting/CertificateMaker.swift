import CCrypto

/// A certificate authority in memory that issues server certificates, for `TestCertificates`.
/// Test-only: it stops the process on any libcrypto failure, since no test could go on.
final class CertificateMaker: @unchecked Sendable {
    // Safe to share: `serial` changes only while `TestCertificates.shared` is made, on the
    // one thread that makes it; the key and certificate are only read.
    private let key: OpaquePointer
    private let certificate: OpaquePointer
    private var serial: Int = 1

    private init(key: OpaquePointer, certificate: OpaquePointer) {
        self.key = key
        self.certificate = certificate
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    var certificatePEM: String { Self.pem { PEM_write_bio_X509($0, certificate) } }

    /// A self-signed CA, valid from yesterday for a week.
    static func authority(named name: String) -> CertificateMaker {
        let key = makeKey()
        let certificate = makeCertificate(commonName: name, key: key, serial: 1, validDays: -1 ... 7)
        X509_set_issuer_name(certificate, X509_get_subject_name(certificate))
        addExtensions(certificate, issuer: certificate, [
            (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
            (NID_subject_key_identifier, "hash"),
        ])
        precondition(X509_sign(certificate, key, EVP_sha256()) > 0, "the test CA could not be signed")
        return CertificateMaker(key: key, certificate: certificate)
    }

    /// A server certificate for `names` (subjectAltName syntax), signed by this CA.
    func issue(commonName: String, names: String, validDays: ClosedRange<Int> = -1 ... 7) -> TestCertificates.Identity {
        serial += 1
        let leafKey = Self.makeKey()
        defer { EVP_PKEY_free(leafKey) }
        let leaf = Self.makeCertificate(commonName: commonName, key: leafKey, serial: serial, validDays: validDays)
        defer { X509_free(leaf) }
        X509_set_issuer_name(leaf, X509_get_subject_name(certificate))
        Self.addExtensions(leaf, issuer: certificate, [
            (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, names),
            (NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always"),
        ])
        precondition(X509_sign(leaf, key, EVP_sha256()) > 0, "a test certificate could not be signed")
        let leafPEM = Self.pem { PEM_write_bio_X509($0, leaf) }
        return TestCertificates.Identity(certificatePEM: leafPEM,
                                         privateKeyPEM: Self.pem {
                                             PEM_write_bio_PrivateKey($0, leafKey, nil, nil, 0, nil, nil)
                                         },
                                         chainPEM: leafPEM + certificatePEM)
    }

    private static func makeKey() -> OpaquePointer {
        let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key else { fatalError("a test key could not be made") }
        return key
    }

    private static func makeCertificate(commonName: String, key: OpaquePointer, serial: Int,
                                        validDays: ClosedRange<Int>) -> OpaquePointer {
        guard let certificate = X509_new() else { fatalError("no certificate") }
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
        X509_gmtime_adj(X509_getm_notBefore(certificate), validDays.lowerBound * 86_400)
        X509_gmtime_adj(X509_getm_notAfter(certificate), validDays.upperBound * 86_400)
        X509_set_pubkey(certificate, key)
        X509_NAME_add_entry_by_txt(X509_get_subject_name(certificate), "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        return certificate
    }

    private static func addExtensions(_ certificate: OpaquePointer, issuer: OpaquePointer,
                                      _ extensions: [(Int32, String)]) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                fatalError("extension \(nid) could not be made")
            }
            X509_add_ext(certificate, made, -1)
            X509_EXTENSION_free(made)
        }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("no memory BIO") }
        defer { BIO_free(bio) }
        precondition(write(bio) == 1, "PEM could not be written")
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(Int(max(0, count))), as: UTF8.self)
    }
}
