import CCrypto

/// The OSSL_PARAM list that names a MAC's digest, built so that it stays valid while
/// OpenSSL reads it.
///
/// `OSSL_PARAM_construct_utf8_string` doesn't copy: the parameter it returns keeps the
/// key and value pointers it was given, and `EVP_MAC_init` reads them later. A Swift
/// string passed straight to the construct call becomes a C string that lives only for
/// that one call, so by `EVP_MAC_init` the parameter can point at freed memory; when
/// another thread has reused it, OpenSSL finds no "digest" and can't set the key. Here
/// both C strings are held for the whole of `body`, which is the only place the list
/// may be used.
enum MACParameters {
    /// Runs `body` with `digest=<name>` and the end marker; the list is valid only inside it.
    static func withDigest<T>(_ name: String, _ body: (UnsafeMutablePointer<OSSL_PARAM>) throws(CryptoError) -> T)
        throws(CryptoError) -> T {
        var key = Array("digest".utf8CString)
        var value = Array(name.utf8CString)
        let outcome: Result<T, CryptoError> = key.withUnsafeMutableBufferPointer { key in
            value.withUnsafeMutableBufferPointer { value in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(key.baseAddress, value.baseAddress, 0),
                    OSSL_PARAM_construct_end(),
                ]
                return parameters.withUnsafeMutableBufferPointer { list in
                    Result { () throws(CryptoError) -> T in try body(list.baseAddress!) }
                }
            }
        }
        return try outcome.get()
    }
}
