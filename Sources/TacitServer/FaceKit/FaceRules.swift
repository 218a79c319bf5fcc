import TacitCore

/// What the engine does differently for the verifications a face starts, supplied by
/// the face so the engine names none.
public struct FaceRules: Sendable, Equatable {
    /// Wrong codes that end the verification, per kind of step.
    public var attempts: AttemptLimits
    /// What the silent step's check_url round trip hands over once the network matched the SIM.
    public var silentEnding: SilentEnding

    public init(attempts: AttemptLimits = .standard, silentEnding: SilentEnding = .token) {
        self.attempts = attempts
        self.silentEnding = silentEnding
    }

    /// `/v1`'s rules, and those of any face that sets none.
    public static let standard = FaceRules()
}
