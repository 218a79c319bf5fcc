import Foundation

/// Standard (RFC 4648 §4) and URL-safe (§5) base64.
public enum Base64 {
    /// Standard base64 with `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Decodes standard base64 (padding required), or nil when malformed.
    public static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { Array($0) }
    }

    /// URL-safe base64 without padding, as used by JWTs and tokens.
    public static func urlEncode(_ bytes: [UInt8]) -> String {
        // Mapped byte by byte: Foundation's string replacement is slow on Linux, and tokens are made per request.
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        for byte in encode(bytes).utf8 {
            switch byte {
            case UInt8(ascii: "+"): output.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): output.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes URL-safe base64, with or without padding, or nil when malformed.
    public static func urlDecode(_ text: String) -> [UInt8]? {
        // Standard characters would decode too once swapped, so refuse them here.
        guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if !standard.hasSuffix("=") {
            let remainder = standard.utf8.count % 4
            guard remainder != 1 else { return nil }
            if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        }
        return decode(standard)
    }
}
