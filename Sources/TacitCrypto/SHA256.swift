import CCrypto

/// SHA-256 (FIPS 180-4) over OpenSSL.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBufferPointer { input in
            // An empty input still needs a valid pointer.
            withUnsafePointer(to: 0 as UInt8) { empty in
                EVP_Digest(input.baseAddress ?? empty, bytes.count, &output, &length, EVP_sha256(), nil)
            }
        }
        guard status == 1 else { fatalError("SHA256: OpenSSL EVP_Digest failed") }
        return output
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }
}
