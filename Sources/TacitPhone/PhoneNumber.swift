import TacitCore

/// A validated phone number in E.164 form.
///
/// Its `description` is the redacted form, so interpolating a `PhoneNumber`
/// into a log line or error never leaks the number; use ``e164`` on purpose.
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The calling code of the virtual mobile operator's range. It is unassigned
    /// by the ITU, so no real number can ever collide with it.
    public static let virtualCountryCallingCode = VirtualRange.countryCallingCode

    /// The number in E.164 form, e.g. `+447911123456`.
    public let e164: String
    /// The ISO 3166-1 region, e.g. `"GB"`; nil for the virtual operator's range
    /// and for non-geographic numbers (such as +800 or +882).
    public let region: String?
    /// The country calling code, e.g. 44.
    public let countryCallingCode: Int
    /// The kind of line; the virtual operator's numbers are ``PhoneLineType/mobile``.
    public let lineType: PhoneLineType

    /// Makes a number from parts that are already known to be valid. To check
    /// untrusted input use ``PhoneNumberParser`` instead.
    public init(e164: String, region: String?, countryCallingCode: Int, lineType: PhoneLineType) {
        self.e164 = e164
        self.region = region
        self.countryCallingCode = countryCallingCode
        self.lineType = lineType
    }

    /// Whether the number belongs to the virtual mobile operator (`+990…`).
    public var isVirtual: Bool { countryCallingCode == Self.virtualCountryCallingCode }

    /// The number with all but a few digits masked: `+44•••••3456`.
    public var redacted: String { Self.redact(e164) }

    public var description: String { redacted }
}
