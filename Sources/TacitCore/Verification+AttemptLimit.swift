extension Verification {
    /// What a verification started through the Vonage Verify v2 face records as its face.
    public static let vonageFace = "vonage"

    /// How many wrong codes end the verification: the three tries Vonage Verify v2
    /// documents for one started through its face, so its 410 comes where Vonage's does;
    /// `VerificationOptions.maxAttempts` for every other.
    public var attemptLimit: Int {
        face == Self.vonageFace ? 3 : VerificationOptions.maxAttempts
    }
}
