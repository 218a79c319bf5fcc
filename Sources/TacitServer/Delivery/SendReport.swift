import Foundation

/// How one queued send ended, as reported to observers (tests, embedders watching delivery).
public struct SendReport: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The sender answered and the answer was applied; `accepted` says which way.
        case sent(accepted: Bool)
        /// Deleted without sending: the verification had ended, its step was no longer
        /// current, it was gone, or the code could not be opened.
        case dropped
        /// The worker stopped while the send was in flight and no acceptance came: the row
        /// is given back and sent again by the next worker.
        case interrupted
    }
    /// The send's idempotency key (`QueuedSend.id`).
    public var sendId: String
    public var verificationId: String
    public var step: Int
    public var result: Result
}
