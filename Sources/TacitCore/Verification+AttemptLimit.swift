extension Verification {
    /// What a verification started through the Vonage Verify v2 face records as its face.
    public static let vonageFace = "vonage"

    /// How many wrong codes end the verification while `channel` is the active one. Through
    /// the Vonage Verify v2 face it is what Vonage documents: "The PIN code can be retried a
    /// maximum of three times", and a code checked against a silent-auth workflow gets "only
    /// one attempt", so its 410 comes where Vonage's does. Every other face allows
    /// `VerificationOptions.maxAttempts`.
    public func attemptLimit(on channel: Channel) -> Int {
        guard face == Self.vonageFace else { return VerificationOptions.maxAttempts }
        return channel == .silentAuth ? 1 : 3
    }
}
