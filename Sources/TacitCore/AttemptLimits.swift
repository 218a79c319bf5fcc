/// How many wrong codes end a verification, by the kind of step that is active. `/v1`
/// allows `VerificationOptions.maxAttempts` on every step; a drop-in face may supply its
/// vendor's own limits, which the engine then keeps for the verifications it starts.
public struct AttemptLimits: Sendable, Equatable {
    /// On a step whose code went out by SMS, voice or WhatsApp.
    public var codes: Int
    /// On a silent step, whose code the check_url round trip handed over.
    public var silentCodes: Int

    public init(codes: Int, silentCodes: Int) {
        self.codes = codes
        self.silentCodes = silentCodes
    }

    public static let standard = AttemptLimits(codes: VerificationOptions.maxAttempts,
                                               silentCodes: VerificationOptions.maxAttempts)

    /// The limit while `channel` is the active step's.
    public func limit(on channel: Channel) -> Int { channel == .silentAuth ? silentCodes : codes }
}
