/// What a verification handed out that a device may type back into free text: its
/// number, its current code (known only by a test, since Tacit keeps a keyed hash of
/// it) and the secret parts of its tokens. The redactor looks for these in device
/// text however they are spaced, because a generic "run of digits" rule can't see
/// `6-1-6-4-2-0` or a token broken across two words.
public struct IssuedSecrets: Sendable {
    /// The verification's number in E.164 form.
    public var phoneNumber: String
    /// How many digits the verification's codes have.
    public var codeLength: Int
    /// The secret parts of tokens the device holds (a client token's random tail).
    public var tokenTails: [String]
    /// True when the digits are the code issued for the verification's current step.
    public var isCode: @Sendable (String) -> Bool

    public init(phoneNumber: String, codeLength: Int, tokenTails: [String] = [],
                isCode: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.phoneNumber = phoneNumber
        self.codeLength = codeLength
        self.tokenTails = tokenTails
        self.isCode = isCode
    }

    /// The fewest characters of a token tail that count as the tail: below this a
    /// fragment says too little to matter, and ordinary words would start to match.
    public static let minimumTokenFragment = 8
    /// The fewest trailing digits of the number that count as the number.
    public static let minimumNumberDigits = 7
}
