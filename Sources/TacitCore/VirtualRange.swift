/// The virtual mobile operator's numbers: `+990` followed by subscriber digits. The
/// calling code is unassigned by the ITU, so no real number can collide with it. The
/// operator, the handset inbox, the phone parser's dev acceptance and the security
/// guards all ask this one value, so the range can't drift between them.
public enum VirtualRange {
    /// The calling code of the range.
    public static let countryCallingCode = 990
    /// The E.164 prefix every number of the range starts with.
    public static let prefix = "+\(countryCallingCode)"

    /// True when the E.164 text `number` is in the range. Only the prefix is looked at:
    /// callers that need a well-formed number check its digits themselves.
    public static func contains(_ number: String) -> Bool {
        number.hasPrefix(prefix)
    }
}
