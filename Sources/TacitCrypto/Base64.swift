/// Standard (RFC 4648 §4) and URL-safe (§5) base64, byte by byte: tokens and check
/// URLs are encoded and decoded on every hop, and Foundation's string round trips
/// cost more than the cryptography they wrap.
public enum Base64 {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlSafe = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF
    private static let standardValues = values(of: standard)
    private static let urlSafeValues = values(of: urlSafe)

    /// Standard base64 with `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(decoding: encode(bytes, alphabet: standard, padded: true), as: UTF8.self)
    }

    /// Decodes standard base64 (padding required), or nil when malformed.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var body = characters[...]
        if body.last == UInt8(ascii: "=") { body = body.dropLast() }
        if body.last == UInt8(ascii: "=") { body = body.dropLast() }
        return decode(body, values: standardValues)
    }

    /// URL-safe base64 without padding, as used by JWTs and tokens.
    public static func urlEncode(_ bytes: [UInt8]) -> String {
        String(decoding: encode(bytes, alphabet: urlSafe, padded: false), as: UTF8.self)
    }

    /// Decodes URL-safe base64, with or without padding, or nil when malformed.
    public static func urlDecode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        var body = characters[...]
        if body.last == UInt8(ascii: "=") {
            guard characters.count % 4 == 0 else { return nil }
            body = body.dropLast()
            if body.last == UInt8(ascii: "=") { body = body.dropLast() }
        }
        return decode(body, values: urlSafeValues)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = bytes.count - index
        guard rest > 0 else { return output }
        let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
        output.append(alphabet[Int(group >> 18 & 0x3F)])
        output.append(alphabet[Int(group >> 12 & 0x3F)])
        if rest == 2 { output.append(alphabet[Int(group >> 6 & 0x3F)]) }
        if padded { output.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 3 - rest)) }
        return output
    }

    /// Decodes unpadded characters; nil on a character outside the alphabet, a
    /// dangling single character, or leftover bits that are not zero (non-canonical).
    private static func decode(_ characters: ArraySlice<UInt8>, values: [UInt8]) -> [UInt8]? {
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var count = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != invalid else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(group >> 16 & 0xFF))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                count = 0
            }
        }
        switch count {
        case 2:
            guard group & 0xF == 0 else { return nil }
            output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            guard group & 0x3 == 0 else { return nil }
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default: break
        }
        return output
    }

    private static func values(of alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }
}
