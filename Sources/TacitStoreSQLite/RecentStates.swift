import Synchronization
import TacitCore

/// A bounded map from verification id to the state last read or written, shared by the
/// store's callers. When full it starts over: these are hints, never answers.
final class RecentStates: Sendable {
    static let capacity = 4096
    private let states = Mutex<[String: (SQLiteVerificationStore.Snapshot, Verification)]>([:])

    func put(_ id: String, _ snapshot: SQLiteVerificationStore.Snapshot, _ verification: Verification) {
        states.withLock { states in
            if states.count >= Self.capacity { states.removeAll(keepingCapacity: true) }
            states[id] = (snapshot, verification)
        }
    }

    /// The state kept for `id`, removed so a stale one is tried only once.
    func take(_ id: String) -> (SQLiteVerificationStore.Snapshot, Verification)? {
        states.withLock { $0.removeValue(forKey: id) }
    }
}
