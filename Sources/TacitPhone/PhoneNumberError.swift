import TacitCore

/// Why a phone number was refused. The description never contains the number.
public struct PhoneNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason: `empty`, `invalid`, `missing_region`,
    /// `invalid_country_code`, `too_short`, `too_long` or `not_mobile`.
    public let code: String
    /// A sentence suitable for an API problem's `detail`.
    public let description: String
    /// For `not_mobile`, the kind of line the number is.
    public let lineType: PhoneLineType?

    init(code: String, description: String, lineType: PhoneLineType? = nil) {
        self.code = code
        self.description = description
        self.lineType = lineType
    }

    /// Nothing left once spaces and punctuation are removed.
    public static let empty = PhoneNumberError(code: "empty", description: "The phone number is empty.")
    /// Not a phone number, or not a valid one for its country.
    public static let invalid = PhoneNumberError(code: "invalid", description: "The phone number is not valid.")
    /// The +990 virtual operator range while it is turned off.
    public static let virtualRangeDisabled = PhoneNumberError(
        code: "invalid", description: "Numbers in the \(VirtualRange.prefix) test range are accepted only in dev mode.")
    /// A national number with no default region to read it in.
    public static let missingRegion = PhoneNumberError(
        code: "missing_region", description: "The phone number needs a country code, such as +44, in E.164 form.")
    /// No country uses the calling code.
    public static let invalidCountryCode = PhoneNumberError(
        code: "invalid_country_code", description: "The phone number's country code does not exist.")
    /// Too few digits.
    public static let tooShort = PhoneNumberError(code: "too_short", description: "The phone number is too short.")
    /// Too many digits.
    public static let tooLong = PhoneNumberError(code: "too_long", description: "The phone number is too long.")

    /// A valid number on a line that can't receive a code.
    public static func notMobile(_ lineType: PhoneLineType) -> PhoneNumberError {
        PhoneNumberError(
            code: "not_mobile",
            description: "The phone number is \(lineType.phrase), which can't receive a verification code.",
            lineType: lineType)
    }
}
