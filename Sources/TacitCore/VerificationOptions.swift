/// Validated options of a new verification (the optional fields of the start request).
public struct VerificationOptions: Sendable, Equatable {
    public static let defaultWorkflow: [Channel] = [.silentAuth, .sms, .voice]
    public static let codeLengthRange = 4...10
    public static let channelTimeoutRange = 15...900
    public static let maxAttempts = 5

    public var workflow: [Channel]
    public var codeLength: Int
    public var channelTimeout: Int
    public var brand: String
    /// The locale the start asked for; empty when it asked for none, and the server then
    /// chooses one from the number (docs/locales.md).
    public var locale: String
    public var clientRef: String?
    public var simSwap: SimSwapPolicy?
    /// The Android SMS Retriever hash a start gave for its SMS (a face's own field for it,
    /// docs/compatible-apis.md); it replaces the application's (docs/locales.md#autofill).
    public var smsAppHash: String?
    /// Where an email step sends its code (docs/api.md#email-steps); nil without one.
    public var emailAddress: String?

    public init(
        workflow: [Channel] = VerificationOptions.defaultWorkflow, codeLength: Int = 6,
        channelTimeout: Int = 60, brand: String = "Tacit", locale: String = "",
        clientRef: String? = nil, simSwap: SimSwapPolicy? = nil
    ) {
        self.workflow = workflow
        self.codeLength = codeLength
        self.channelTimeout = channelTimeout
        self.brand = brand
        self.locale = locale
        self.clientRef = clientRef
        self.simSwap = simSwap
    }

    /// The reasons these options break (docs/api.md#starting-a-verification), by field name; empty when valid.
    public func problems() -> [InvalidParameter] {
        var found: [InvalidParameter] = []
        if workflow.isEmpty || workflow.count > 4 {
            found.append(.init(name: "workflow", reason: "must have 1 to 4 steps"))
        } else if Set(workflow).count != workflow.count {
            found.append(.init(name: "workflow", reason: "a channel may appear only once"))
        } else if workflow.dropFirst().contains(.silentAuth) {
            found.append(.init(name: "workflow", reason: "silent_auth may only be the first step"))
        }
        if let step = workflow.firstIndex(of: .email) {
            if let emailAddress {
                if let reason = EmailAddress.problem(emailAddress) {
                    found.append(.init(name: "workflow[\(step)].to", reason: reason))
                }
            } else {
                found.append(.init(name: "workflow[\(step)].to", reason: "is required for an email step"))
            }
        }
        if !Self.codeLengthRange.contains(codeLength) {
            found.append(.init(name: "code_length", reason: "must be between 4 and 10"))
        }
        if !Self.channelTimeoutRange.contains(channelTimeout) {
            found.append(.init(name: "channel_timeout", reason: "must be between 15 and 900 seconds"))
        }
        if brand.isEmpty || brand.count > 18 {
            found.append(.init(name: "brand", reason: "must be 1 to 18 characters"))
        } else if !Self.isPlainText(brand) {
            found.append(.init(name: "brand", reason: Self.plainTextRule))
        }
        if let clientRef, clientRef.isEmpty || clientRef.count > 40 {
            found.append(.init(name: "client_ref", reason: "must be 1 to 40 characters"))
        }
        if let simSwap, !(1...2400).contains(simSwap.maxAgeHours) {
            found.append(.init(name: "sim_swap.max_age_hours", reason: "must be between 1 and 2400"))
        }
        return found
    }
}

extension VerificationOptions {
    /// Why a brand that is not plain text is refused.
    public static let plainTextRule = "must hold no control, format, bidi or invisible characters"

    /// Whether `text` reads as it shows: no control characters (a newline, a tab), no format
    /// characters (bidi overrides such as U+202E, zero-width spaces and joiners), no line or
    /// paragraph separators, nothing private or unassigned. A brand goes into every message,
    /// where such characters could reorder or hide the text around the code.
    public static func isPlainText(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: true
            }
        }
    }
}

/// One field of a request that was rejected, and why (problem+json `invalid_parameters`).
public struct InvalidParameter: Codable, Sendable, Equatable {
    public var name: String
    public var reason: String
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
