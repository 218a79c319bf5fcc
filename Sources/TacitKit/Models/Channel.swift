/// A verification channel, as named on the wire.
public enum Channel: String, Codable, Sendable, CaseIterable {
    case silentAuth = "silent_auth"
    case sms
    case voice
    case whatsapp
    /// A code by email, to the address the workflow's email step names.
    case email
}

/// The status of a whole verification.
public enum VerificationStatus: String, Codable, Sendable {
    case pending, completed, failed, expired, cancelled

    /// Whether the verification can no longer change.
    public var isTerminal: Bool { self != .pending }
}

/// The status of one workflow step.
public enum StepStatus: String, Codable, Sendable {
    case unused, active, completed, failed, expired, rejected
}
