import TacitCrypto

/// A device's client token: `ct_`, its verification's id, `_`, and 32 random bytes in
/// URL-safe base64. The id tells whose token it is without an index over every pending
/// verification's token hash; only the random part makes the token unguessable, and the
/// token opens nothing unless its keyed hash matches the one its verification keeps.
/// The whole token is one run of URL-safe characters, so the redactor masks all of it.
public enum ClientToken {
    static let prefix = "ct_"
    /// The length of the random tail: 32 bytes in unpadded base64.
    static let tailLength = 43

    public static func make(for verificationId: String) -> String {
        Token.generate(prefix: prefix + verificationId + "_", bytes: 32)
    }

    /// The id of the verification `token` was made for; nil for anything not shaped like one
    /// (including tokens made before tokens named their verification).
    static func verificationId(in token: String) -> String? {
        let body = Array(token.utf8)
        let head = prefix.utf8.count
        guard token.hasPrefix(prefix), body.count > head + 1 + tailLength,
              body[body.count - tailLength - 1] == UInt8(ascii: "_") else { return nil }
        return String(decoding: body[head..<(body.count - tailLength - 1)], as: UTF8.self)
    }
}
