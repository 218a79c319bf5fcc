import Foundation

/// The GSM 03.38 default alphabet and its extension table (3GPP TS 23.038 §6.2.1), as
/// septet values. A character of the extension table is sent as the escape 0x1B and its
/// value, so it counts twice towards a message's length.
enum GSM7 {
    static let escape: UInt8 = 0x1B

    /// The 128 positions of the default alphabet in order; 0x1B (the escape) is a placeholder.
    private static let table: [Unicode.Scalar] = Array((
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u{1B}ÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
    ).unicodeScalars)

    private static let basic: [Unicode.Scalar: UInt8] = Dictionary(
        table.enumerated().filter { $0.offset != 0x1B }.map { ($0.element, UInt8($0.offset)) },
        uniquingKeysWith: { first, _ in first })

    static let extended: [Unicode.Scalar: UInt8] = [
        "\u{0C}": 0x0A, "^": 0x14, "{": 0x28, "}": 0x29, "\\": 0x2F,
        "[": 0x3C, "~": 0x3D, "]": 0x3E, "|": 0x40, "€": 0x65,
    ]

    /// The septets of `text`, one per octet, or nil when a character is outside both tables.
    static func encode(_ text: String) -> [UInt8]? {
        var septets: [UInt8] = []
        septets.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let value = basic[scalar] {
                septets.append(value)
            } else if let value = extended[scalar] {
                septets += [escape, value]
            } else {
                return nil
            }
        }
        return septets
    }

    /// The text of unpacked septets, or nil for a value outside the tables.
    static func decode(_ septets: [UInt8]) -> String? {
        var scalars = String.UnicodeScalarView()
        var escaped = false
        for septet in septets {
            guard septet < 0x80 else { return nil }
            if escaped {
                guard let scalar = extended.first(where: { $0.value == septet })?.key else { return nil }
                scalars.append(scalar)
                escaped = false
            } else if septet == escape {
                escaped = true
            } else {
                scalars.append(table[Int(septet)])
            }
        }
        return escaped ? nil : String(scalars)
    }
}
