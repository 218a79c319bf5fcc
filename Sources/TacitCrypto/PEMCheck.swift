import CCrypto

/// Checks TLS files before a server is given them, so a bad one is reported by the
/// setting that named it instead of as a failed start.
public enum PEMCheck {
    /// How many X.509 certificates `pem` holds, read in order until the first block that
    /// is not one; 0 when the text starts with anything else.
    public static func certificateCount(_ pem: String) -> Int {
        withBIO(pem, orElse: 0) { bio in
            var count = 0
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                X509_free(certificate)
                count += 1
            }
            ERR_clear_error()
            return count
        }
    }

    /// True when `pem` holds an unencrypted private key libcrypto can read.
    public static func isPrivateKey(_ pem: String) -> Bool {
        withBIO(pem, orElse: false) { bio in
            // No password callback: an encrypted key is refused rather than prompted for.
            guard let key = PEM_read_bio_PrivateKey(bio, nil, emptyPassword, nil) else {
                ERR_clear_error()
                return false
            }
            EVP_PKEY_free(key)
            return true
        }
    }

    /// True when the private key in `keyPEM` belongs to the first certificate of `chainPEM`.
    public static func key(_ keyPEM: String, matches chainPEM: String) -> Bool {
        withBIO(chainPEM, orElse: false) { certificateBIO in
            withBIO(keyPEM, orElse: false) { keyBIO in
                guard let certificate = PEM_read_bio_X509(certificateBIO, nil, nil, nil) else { return false }
                defer { X509_free(certificate) }
                guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, emptyPassword, nil) else { return false }
                defer { EVP_PKEY_free(key) }
                let matches = X509_check_private_key(certificate, key) == 1
                ERR_clear_error()
                return matches
            }
        }
    }

    /// Runs `body` with a read-only memory BIO over `text`; `failed` when none can be made.
    private static func withBIO<T>(_ text: String, orElse failed: T, _ body: (OpaquePointer) -> T) -> T {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return failed }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}

/// A password callback that offers no password, so an encrypted key fails to load.
private func emptyPassword(
    _: UnsafeMutablePointer<CChar>?, _: Int32, _: Int32, _: UnsafeMutableRawPointer?
) -> Int32 { 0 }
