import Foundation

/// The GSM 03.38 default alphabet and its extension table: a text made only of these
/// characters goes as an ordinary SMS; anything else needs `type=unicode` (UCS-2).
enum GSMAlphabet {
    static let basic: Set<Character> = Set(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
    ).union(["\r\n"])  // Swift reads CR LF as one character; the alphabet has both.
    /// Sent as an escape and the character, so each counts twice in a message's length.
    static let extended: Set<Character> = Set("^{}\\[~]|€\u{0C}")

    static func encodes(_ text: String) -> Bool {
        text.allSatisfy { basic.contains($0) || extended.contains($0) }
    }
}
