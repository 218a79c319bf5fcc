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

    /// A text's length in each alphabet. Lengths add up when texts are joined, so a
    /// message made from fixed words and a few values is measured without being written.
    public struct Length: Sendable, Equatable {
        /// Septets in GSM-7, nil when a character is outside it.
        public var septets: Int?
        public var utf16: Int

        public static let zero = Length(septets: 0, utf16: 0)

        public init(septets: Int?, utf16: Int) {
            self.septets = septets
            self.utf16 = utf16
        }

        public init(_ text: Substring) {
            var septets = 0
            let ascii = SMSEncoding.asciiSeptets
            for scalar in text.unicodeScalars {
                let cost = scalar.isASCII ? Int(ascii[Int(scalar.value)]) : SMSEncoding.septets(scalar)
                guard cost > 0 else {
                    self.init(septets: nil, utf16: text.utf16.count)
                    return
                }
                septets += cost
            }
            self.init(septets: septets, utf16: text.utf16.count)
        }

        public init(_ text: String) {
            self.init(text[...])
        }

        public static func + (lhs: Length, rhs: Length) -> Length {
            Length(septets: lhs.septets.flatMap { left in rhs.septets.map { left + $0 } }, utf16: lhs.utf16 + rhs.utf16)
        }

        public static func * (length: Length, times: Int) -> Length {
            Length(septets: length.septets.map { $0 * times }, utf16: length.utf16 * times)
        }
    }

    public init(_ text: String) {
        self.init(Length(text))
    }

    public init(_ length: Length) {
        if let septets = length.septets {
            alphabet = .gsm7
            units = septets
            segments = septets <= 160 ? 1 : (septets + 152) / 153
        } else {
            alphabet = .ucs2
            units = length.utf16
            segments = units <= 70 ? 1 : (units + 66) / 67
        }
    }

    /// The GSM 03.38 default alphabet.
    static let basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
         + "¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)
    /// The extension table, each sent as an escape and the character.
    static let extended: Set<Unicode.Scalar> = Set("^{}\\[~]|€\u{0C}".unicodeScalars)

    /// The septets `scalar` takes in GSM-7: 1 in the basic alphabet, 2 in the extension
    /// table, 0 when it has none.
    static func septets(_ scalar: Unicode.Scalar) -> Int {
        basic.contains(scalar) ? 1 : extended.contains(scalar) ? 2 : 0
    }

    /// `septets` of each ASCII character, by its value. Every message's text is measured
    /// when it is sent, and nearly all of it is ASCII: a table read instead of hashing each
    /// character into the sets.
    static let asciiSeptets: [UInt8] = (0..<128).map { UInt8(septets(Unicode.Scalar(UInt8($0)))) }
}
