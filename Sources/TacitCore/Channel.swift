/// A way of reaching the person who holds a phone number.
public enum Channel: String, Codable, Sendable, CaseIterable {
    case silentAuth = "silent_auth"
    case sms
    case voice
    case whatsapp
    /// A code by email, to the address the step names rather than to the number.
    case email

    /// Channels that deliver a one-time code the person types.
    public var sendsCode: Bool { self != .silentAuth }

    /// How a person would name the channel in a sentence.
    public var spokenName: String {
        switch self {
        case .silentAuth: return "silent authentication"
        case .sms: return "SMS"
        case .voice: return "voice call"
        case .whatsapp: return "WhatsApp"
        case .email: return "email"
        }
    }
}

/// Status of one step of a workflow (docs/api.md#the-verification).
public enum StepStatus: String, Codable, Sendable, CaseIterable {
    case unused, active, completed, failed, expired, rejected
}

/// Status of a whole verification (docs/api.md#the-verification).
public enum VerificationStatus: String, Codable, Sendable, CaseIterable {
    case pending, completed, failed, expired, cancelled

    public var isFinished: Bool { self != .pending }
}
