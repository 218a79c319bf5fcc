/// What a verification's sealed contact field holds: its number, and after a newline the
/// address of its email step when it has one. The address is sealed with the number
/// rather than in a column of its own, so a copy of the database yields neither, and a
/// reseal carries both. The index is the number's alone, or the address's for a verification
/// of an address alone, whose number is empty (`Verification.contact`).
public enum SealedContact {
    static let separator = UInt8(ascii: "\n")

    /// The plaintext to seal. Neither an E.164 number nor a checked address holds a newline.
    public static func plaintext(phoneNumber: String, emailAddress: String?) -> [UInt8] {
        guard let emailAddress else { return Array(phoneNumber.utf8) }
        return Array(phoneNumber.utf8) + [separator] + Array(emailAddress.utf8)
    }

    /// The number and address an opened field holds; a field sealed before addresses
    /// existed is the number alone.
    public static func read(_ opened: [UInt8]) -> (phoneNumber: String, emailAddress: String?) {
        guard let cut = opened.firstIndex(of: separator) else { return (String(decoding: opened, as: UTF8.self), nil) }
        return (String(decoding: opened[..<cut], as: UTF8.self),
                String(decoding: opened[opened.index(after: cut)...], as: UTF8.self))
    }

    /// What the field's index is computed from, as `Verification.contact` gives it.
    public static func contact(_ opened: [UInt8]) -> String {
        let read = read(opened)
        return read.phoneNumber.isEmpty ? read.emailAddress ?? "" : read.phoneNumber
    }
}
