/// How an SMS text travels: in GSM 7-bit characters when every character is in the GSM
/// 03.38 alphabet (its extension table's characters count twice), otherwise in UCS-2.
/// A single message holds 160 septets or 70 UCS-2 units; a longer text is split into parts
/// of 153 or 67, each losing room to the header that joins them. Providers bill by part,
/// so the count is on every `sms:code_sent` event (docs/locales.md).
public struct SMSEncoding: Sendable, Equatable {
    public enum Alphabet: String, Sendable {
        case gsm7 = "GSM-7"
        case ucs2 = "UCS-2"
    }

    public let alphabet: Alphabet
    /// Septets for GSM-7, UTF-16 units for UCS-2.
    public let units: Int
    public let segments: Int

    public init(_ text: String) {
        var septets = 0
        var isGSM = true
        for scalar in text.unicodeScalars {
            if Self.basic.contains(scalar) {
                septets += 1
            } else if Self.extended.contains(scalar) {
                septets += 2
            } else {
                isGSM = false
                break
            }
        }
        if isGSM {
            alphabet = .gsm7
            units = septets
            segments = septets <= 160 ? 1 : (septets + 152) / 153
        } else {
            alphabet = .ucs2
            units = text.utf16.count
            segments = units <= 70 ? 1 : (units + 66) / 67
        }
    }

    /// The GSM 03.38 default alphabet.
    static let basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
         + "¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)
    /// The extension table, each sent as an escape and the character.
    static let extended: Set<Unicode.Scalar> = Set("^{}\\[~]|€\u{0C}".unicodeScalars)
}
