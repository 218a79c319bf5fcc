/// The backend-side verification API. `TacitClient` talks to a Tacit server;
/// apps and tests can supply their own implementation.
public protocol PhoneVerificationService: Sendable {
    /// Starts a verification.
    func start(_ request: StartVerificationRequest) async throws -> Verification
    /// Reads the current state.
    func state(_ requestId: String) async throws -> Verification
    /// Checks an SMS/voice/WhatsApp code or the silent-auth code.
    func check(_ requestId: String, code: String) async throws -> CheckResult
    /// Skips to the next channel now; throws `no-next-channel` when none is left.
    func next(_ requestId: String) async throws -> Verification
    /// Cancels the verification.
    func cancel(_ requestId: String) async throws
    /// The timeline events after `after` (a seq), oldest first.
    func events(_ requestId: String, after: Int) async throws -> [TimelineEvent]
    /// Live timeline events after `after`, resuming across reconnects without
    /// duplicates; ends after `verification:summary`.
    func eventStream(_ requestId: String, after: Int) -> AsyncThrowingStream<TimelineEvent, any Error>
    /// The timeline export.
    func timeline(_ requestId: String) async throws -> Timeline
}
