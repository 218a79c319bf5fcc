import Foundation

/// The `client_ref` Tacit gives a Vonage Verify v2 request, which Verify repeats in every
/// event callback: the verification and step the request is for. Verify allows only
/// letters and digits, at most 40, so the `<request_id>:<step>` text of
/// ``CallbackReference`` is written with every other byte (and `Z` itself) as `Z` and two
/// hex digits. It only says where to look: a callback is applied only when the request id
/// it names is the one Tacit recorded for that step.
public enum VonageClientReference {
    static let limit = 40
    private static let escape = UInt8(ascii: "Z")

    /// nil when the escaped text would be longer than Verify allows (the request then goes
    /// without one, and its callbacks are acknowledged without effect).
    public static func text(verificationId: String, step: Int) -> String? {
        var text = ""
        for byte in CallbackReference(verificationId: verificationId, step: step).text.utf8 {
            if byte != escape, byte < 0x80, Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "Z" + String(format: "%02X", byte)
            }
        }
        return text.count <= limit ? text : nil
    }

    /// The reference `text` was made from; nil for anything Tacit did not write.
    static func reference(_ text: String) -> CallbackReference? {
        guard text.utf8.count <= limit else { return nil }
        var bytes: [UInt8] = []
        var reader = Array(text.utf8)[...]
        while let byte = reader.popFirst() {
            guard byte == escape else { bytes.append(byte); continue }
            guard reader.count >= 2, let value = UInt8(String(decoding: reader.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            reader = reader.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self).flatMap(CallbackReference.init)
    }
}
