extension PhoneNumber {
    /// The mask that stands in for hidden digits; always five long, so it
    /// doesn't reveal how many digits it hides.
    public static let redactionMask = "•••••"

    /// Masks an E.164 string for events, logs and errors: `+14155551234` → `+14•••••1234`.
    ///
    /// Numbers of 10 digits or more keep their first 2 digits (enough to show the
    /// country) and their last 4. Shorter numbers keep no leading digits and at
    /// most their last 4 (at most half of them), so most of the number stays hidden.
    public static func redact(_ e164: String) -> String {
        let digits = e164.filter { $0.isASCII && $0.isNumber }
        if digits.count >= 10 {
            return "+" + digits.prefix(2) + redactionMask + digits.suffix(4)
        }
        return "+" + redactionMask + digits.suffix(min(4, digits.count / 2))
    }
}
