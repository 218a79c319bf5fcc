import Foundation
import TacitCrypto
import TacitProviderKit

/// The `client_ref` Tacit gives a Vonage Verify v2 request, which Verify repeats in every
/// event callback: the verification and step the request is for. Verify allows only
/// letters and digits, at most 40. It only says where to look: a callback is applied only
/// when the request id it names is the one Tacit recorded for that step.
///
/// Escaping the `<request_id>:<step>` text byte by byte doesn't always fit: a `/v1` id has
/// a `_` and up to 14 base64url characters that may need escaping, and a Vonage face id
/// is a UUID with four dashes (always over 40 once escaped). So the two id shapes Tacit
/// mints are written as their bytes in hex, 35 characters, and anything else (an id a
/// test injected) falls back to the escaped text:
/// - `T` + the 12 hex digits of a `vf_` id's time + its 10 random bytes in hex + `S` + step;
/// - `U` + a UUID's 32 hex digits + `S` + step;
/// - `E` + the text with every byte that isn't a letter or digit (and `Z` itself) as `Z`
///   and two hex digits.
public enum VonageClientReference {
    static let limit = 40
    static let timeOrderedPrefix = "vf_"
    private static let escape = UInt8(ascii: "Z")

    /// nil when even the escaped form would be longer than Verify allows (the request
    /// then goes without one, and its callbacks are acknowledged without effect).
    public static func text(verificationId id: String, step: Int) -> String? {
        let text = compact(id).map { "\($0)S\(step)" }
            ?? "E" + escaped(CallbackReference(verificationId: id, step: step).text)
        return text.count <= limit ? text : nil
    }

    /// The reference `text` was made from; nil for anything Tacit did not write.
    static func reference(_ text: String) -> CallbackReference? {
        guard text.utf8.count <= limit, let form = text.first else { return nil }
        let body = String(text.dropFirst())
        switch form {
        case "T", "U":
            let parts = body.split(separator: "S", omittingEmptySubsequences: false)
            guard parts.count == 2, let step = Int(parts[1]), step >= 0, String(step) == parts[1],
                  let id = expand(form, String(parts[0])) else { return nil }
            return CallbackReference(verificationId: id, step: step)
        case "E":
            return unescaped(body).flatMap(CallbackReference.init)
        default:
            return nil
        }
    }

    /// `T…` or `U…` for the id shapes Tacit mints, without the step.
    private static func compact(_ id: String) -> String? {
        if id.hasPrefix(timeOrderedPrefix), id.utf8.count == timeOrderedPrefix.utf8.count + 26 {
            let rest = id.dropFirst(timeOrderedPrefix.count)
            let time = String(rest.prefix(12))
            guard Hex.decode(time) != nil, time == time.lowercased(),
                  let random = Base64.urlDecode(String(rest.dropFirst(12))), random.count == 10,
                  Base64.urlEncode(random) == String(rest.dropFirst(12)) else { return nil }
            return "T" + time + Hex.encode(random)
        }
        let hex = id.replacingOccurrences(of: "-", with: "")
        guard id.utf8.count == 36, hex.utf8.count == 32, id == id.lowercased(), Hex.decode(hex) != nil,
              uuid(hex) == id else { return nil }
        return "U" + hex
    }

    private static func expand(_ form: Character, _ hex: String) -> String? {
        guard let bytes = Hex.decode(hex), hex == hex.lowercased() else { return nil }
        if form == "U" { return bytes.count == 16 ? uuid(hex) : nil }
        guard bytes.count == 16 else { return nil }
        return timeOrderedPrefix + String(hex.prefix(12)) + Base64.urlEncode(Array(bytes.suffix(10)))
    }

    private static func uuid(_ hex: String) -> String {
        var text = ""
        for (index, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(character)
        }
        return text
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte != escape, byte < 0x80, character.isLetter || character.isNumber {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "Z" + String(format: "%02X", byte)
            }
        }
        return out
    }

    private static func unescaped(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var reader = Array(text.utf8)[...]
        while let byte = reader.popFirst() {
            guard byte == escape else { bytes.append(byte); continue }
            guard reader.count >= 2,
                  let value = UInt8(String(decoding: reader.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            reader = reader.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
