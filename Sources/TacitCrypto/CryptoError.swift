/// OpenSSL failed to set a key up or to run an operation with it.
///
/// This is the server's fault, never the caller's: the request it happened in fails
/// (the API answers it with a 503) and the process goes on, so one bad moment in
/// libcrypto drops one request instead of every request in flight. The description
/// names the step that failed and never the key or the data.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable code for logs and tests: `key_setup` or `operation`.
    public let code: String
    /// What failed, e.g. "HMAC: OpenSSL could not set the key".
    public let description: String

    /// Setting a key up failed: fetching the algorithm, making a context or keying it.
    public static func keySetup(_ what: String) -> CryptoError {
        CryptoError(code: "key_setup", description: what)
    }

    /// An operation with a key already set up failed.
    public static func operation(_ what: String) -> CryptoError {
        CryptoError(code: "operation", description: what)
    }
}
