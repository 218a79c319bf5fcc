import CCrypto

/// Vonage's signed-request scheme ("Signing requests"), which the SMS API also uses on the
/// delivery receipts it sends: the parameters other than `sig`, sorted by name, each written
/// `&name=value` with `&` and `=` in values replaced by `_`; then either the MD5 of that
/// string followed by the secret (`md5hash`, the dashboard's default) or its HMAC under the
/// secret. `sig` is the hex digest; Vonage's SDKs compare it in lower case.
public enum VonageSignature {
    public enum Method: String, Sendable, CaseIterable {
        case md5hash
        case md5
        case sha1
        case sha256
        case sha512
    }

    /// The string Vonage signs.
    public static func canonical(_ parameters: [(name: String, value: String)]) -> String {
        parameters
            .filter { $0.name != "sig" }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { pair in
                "&\(pair.name)="
                    + pair.value.replacingOccurrences(of: "&", with: "_").replacingOccurrences(of: "=", with: "_")
            }
            .joined()
    }

    /// The lower-case hex signature of `parameters` under `secret`.
    public static func sign(_ parameters: [(name: String, value: String)], secret: String, method: Method) -> String {
        let message = Array(canonical(parameters).utf8)
        let key = Array(secret.utf8)
        switch method {
        case .md5hash: return Hex.encode(digest(EVP_md5(), message + key))
        case .md5: return Hex.encode(hmac(EVP_md5(), key: key, message: message))
        case .sha1: return Hex.encode(hmac(EVP_sha1(), key: key, message: message))
        case .sha256: return Hex.encode(hmac(EVP_sha256(), key: key, message: message))
        case .sha512: return Hex.encode(hmac(EVP_sha512(), key: key, message: message))
        }
    }

    /// Whether `signature` (any case) is the signature of the other parameters, compared in constant time.
    public static func isValid(
        _ signature: String, parameters: [(name: String, value: String)], secret: String, method: Method
    ) -> Bool {
        ConstantTime.equals(Array(signature.lowercased().utf8),
                            Array(sign(parameters, secret: secret, method: method).utf8))
    }

    private static func digest(_ type: OpaquePointer?, _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = message.withUnsafeBufferPointer {
            EVP_Digest($0.baseAddress, $0.count, &output, &length, type, nil)
        }
        guard result == 1 else { fatalError("VonageSignature: OpenSSL digest failed") }
        return Array(output.prefix(Int(length)))
    }

    private static func hmac(_ type: OpaquePointer?, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // OpenSSL reads a NULL key as "reuse the previous key": an empty key still gets a buffer.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBufferPointer { keyPointer in
            message.withUnsafeBufferPointer { messagePointer in
                CCrypto.HMAC(type, keyPointer.baseAddress, Int32(key.count),
                             messagePointer.baseAddress ?? keyPointer.baseAddress, message.count, &output, &length)
            }
        }
        guard result != nil else { fatalError("VonageSignature: OpenSSL HMAC failed") }
        return Array(output.prefix(Int(length)))
    }
}
