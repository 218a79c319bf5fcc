extension TimelineEvent {
    /// How the server labels a step that ended without completing (`sms:timed_out`).
    /// A copy of the server's table (this SDK does not import the server's core); the
    /// server's tests compare the two.
    public enum StepEndLabel: String, Sendable, CaseIterable {
        case timedOut = "timed_out"
        case failed = "failed"
        case rejected = "rejected"
        case skipped = "skipped"
        case cancelled = "cancelled"
    }

    /// Why a step or a verification ended, as the server writes it in an event's
    /// `data.reason` and a step's `reason`. Providers may add reasons of their own
    /// (`provider_…`), so a reason outside this list is still a reason. A copy of the
    /// server's table, compared with it by the server's tests.
    public enum EndReason: String, Sendable, CaseIterable {
        case timeout = "timeout"
        case rejected = "rejected"
        case carrierError = "carrier_error"
        case noCoverage = "no_coverage"
        case deviceNotCellular = "device_not_cellular"
        case checkURLReplayed = "check_url_replayed"
        case checkURLExpired = "check_url_expired"
        case integrityError = "integrity_error"
        case unavailable = "unavailable"
        case skipped = "skipped"
        case cancelled = "cancelled"
        case tooManyAttempts = "too_many_attempts"
        case simSwapped = "sim_swapped"
        case providerError = "provider_error"
        case noProvider = "no_provider"
        case rateLimited = "rate_limited"
        case destinationDenied = "destination_denied"
        case fixedLine = "fixed_line"
        case testNumber = "test_number"
        case geo = "geo"
    }
}

extension TimelineEvent {
    /// How the step this event is about ended without completing, when it did.
    public var stepEndLabel: StepEndLabel? {
        labelChannel == "verification" ? nil : StepEndLabel(rawValue: String(labelEvent))
    }
}
