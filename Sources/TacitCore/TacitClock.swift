import Foundation

/// Time as the server sees it: wall time for what is persisted, and sleeping until a
/// wall time for timers. One protocol for both so a test's `ManualClock` moves them together.
public protocol TacitClock: Sendable {
    func now() -> Date
    /// Returns at `deadline` or later; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The real clock.
public struct SystemClock: TacitClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
        try Task.checkCancellation()
    }
}
