import CPhoneNumber
import TacitCore

/// Reads untrusted phone number text into a validated ``PhoneNumber``, using
/// libphonenumber's metadata for every real country.
public struct PhoneNumberParser: Sendable {
    /// E.164 allows at most 15 digits; anything far longer isn't worth handing to libphonenumber.
    static let maximumDigits = 17
    /// How many digits may follow `+990` in the virtual operator's range.
    public static let virtualSubscriberDigits = 5...12

    public init() {}

    /// Parses and validates `text`.
    ///
    /// - Parameters:
    ///   - text: E.164 (`+447911123456`), or national format (`07911 123456`) when
    ///     `defaultRegion` is given. Spaces, dashes, parentheses, dots and slashes are ignored.
    ///   - defaultRegion: an ISO 3166-1 code such as `"GB"` for reading national numbers.
    ///   - allowVirtualRange: accept `+990` followed by 5–12 digits as the virtual
    ///     operator's numbers (dev mode); when false they are `invalid`.
    /// - Throws: ``PhoneNumberError``; numbers that can't receive a code are `not_mobile`, but
    ///   for the lines the start's fraud rules judge (``PhoneLineType/isJudgedAtStart``).
    public func parse(_ text: String, defaultRegion: String? = nil,
                      allowVirtualRange: Bool) throws(PhoneNumberError) -> PhoneNumber {
        let cleaned = try Self.clean(text)
        let virtualPrefix = VirtualRange.prefix
        if cleaned.hasPrefix(virtualPrefix) {
            guard allowVirtualRange else { throw .virtualRangeDisabled }
            return try Self.virtualNumber(cleaned, subscriber: cleaned.dropFirst(virtualPrefix.count))
        }
        guard cleaned.hasPrefix("+") || defaultRegion != nil else { throw .missingRegion }
        let number = try Self.parseWithLibrary(cleaned, defaultRegion: defaultRegion)
        guard number.lineType.canReceiveCodes || number.lineType.isJudgedAtStart else {
            throw .notMobile(number.lineType)
        }
        return number
    }

    /// Drops formatting characters and checks what's left is `+`? then digits.
    static func clean(_ text: String) throws(PhoneNumberError) -> String {
        if let plain = plainE164(text) { return plain }
        let ignored: Set<Character> = ["-", "‐", "‑", "–", "—", "(", ")", ".", "/"]
        let cleaned = text.filter { !$0.isWhitespace && !ignored.contains($0) }
        guard !cleaned.isEmpty else { throw .empty }
        let digits = cleaned.hasPrefix("+") ? cleaned.dropFirst() : Substring(cleaned)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .invalid }
        guard digits.count <= maximumDigits else { throw .tooLong }
        return cleaned
    }

    /// The common case, already `+` and digits only, checked byte by byte: the general
    /// path below walks `Character`s, which costs grapheme breaking on every number.
    private static func plainE164(_ text: String) -> String? {
        let bytes = text.utf8
        guard bytes.count >= 2, bytes.count <= maximumDigits + 1, bytes.first == UInt8(ascii: "+") else { return nil }
        guard bytes.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return text
    }

    private static func virtualNumber(_ cleaned: String,
                                      subscriber: Substring) throws(PhoneNumberError) -> PhoneNumber {
        guard subscriber.count >= virtualSubscriberDigits.lowerBound else { throw .tooShort }
        guard subscriber.count <= virtualSubscriberDigits.upperBound else { throw .tooLong }
        return PhoneNumber(
            e164: cleaned, region: nil, countryCallingCode: PhoneNumber.virtualCountryCallingCode, lineType: .mobile)
    }

    private static func parseWithLibrary(_ cleaned: String,
                                         defaultRegion: String?) throws(PhoneNumberError) -> PhoneNumber {
        var result = cphone_result()
        let status = cphone_parse(cleaned, defaultRegion?.uppercased(), &result)
        switch status {
        case Int32(CPHONE_OK): break
        case Int32(CPHONE_INVALID_COUNTRY_CODE):
            throw cleaned.hasPrefix("+") ? .invalidCountryCode : .missingRegion
        case Int32(CPHONE_TOO_SHORT): throw .tooShort
        case Int32(CPHONE_TOO_LONG): throw .tooLong
        default: throw .invalid
        }
        let region = string(from: result.region)
        return PhoneNumber(
            e164: string(from: result.e164),
            region: region.count == 2 && region != "ZZ" ? region : nil,
            countryCallingCode: Int(result.country_code),
            lineType: PhoneLineType(libphonenumberType: result.type))
    }

    /// Reads a fixed-size C char array (imported as a tuple) up to its NUL.
    private static func string<T>(from tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
