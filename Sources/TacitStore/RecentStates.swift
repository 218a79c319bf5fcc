import Synchronization
import TacitCore

/// A bounded map from verification id to the state a store last read or wrote, shared by
/// its callers. These are hints, never answers: an update confirms a kept state against
/// the row before writing (SQLite compares the columns, PostgreSQL the row's version), and
/// a guard that reads one only decides whether the check that follows may run.
///
/// Two generations bound it: when the newer one holds `generation` states it becomes
/// the older one and the oldest states go. A state put or read lately stays at least
/// `generation` puts, so a verification's create, delivery and check, moments apart,
/// find each other's state even under load.
public final class RecentStates<Snapshot: Sendable>: Sendable {
    public typealias State = (snapshot: Snapshot, verification: Verification)
    /// States per generation; at most twice this many are kept (about 1 KB each).
    @inlinable public static var generation: Int { 32_768 }

    // Inlinable, so each store's calls are specialized for its own snapshot type: through
    // the generic entry points from another module, every put, take and peek paid for the
    // unspecialized dictionary and the retains around it (in `perf` of the silent flow,
    // 0.49 % of the samples against 0.18 % before the type became generic).
    @usableFromInline struct Generations {
        @usableFromInline var newer: [String: State] = [:]
        @usableFromInline var older: [String: State] = [:]
        @usableFromInline init() {}

        /// The state kept for `id` in either generation, if `application` may see it.
        @inlinable func kept(_ id: String, visibleTo application: String?) -> State? {
            guard let kept = newer[id] ?? older[id],
                  StoreScope.admits(kept.verification.applicationId, to: application) else { return nil }
            return kept
        }
    }

    @usableFromInline let states = Mutex(Generations())

    public init() {}

    @inlinable public func put(_ id: String, _ snapshot: Snapshot, _ verification: Verification) {
        let dropped = states.withLock { states -> [String: State] in
            var dropped: [String: State] = [:]
            if states.newer.count >= Self.generation, states.newer[id] == nil {
                dropped = states.older
                states.older = states.newer
                // Sized for the generation it will hold: grown from empty, it was copied into
                // a table twice the size fifteen times (2.5 % of a check's samples in `perf`).
                states.newer = Dictionary(minimumCapacity: Self.generation)
            }
            states.older[id] = nil
            states.newer[id] = (snapshot, verification)
            return dropped
        }
        // The oldest generation is freed here, outside the lock: tens of thousands of
        // states take a while, and every caller of the store would wait on it.
        _ = consume dropped
    }

    /// The state kept for `id`, removed so a stale one is tried only once. Another
    /// application's (see `StoreScope`) is left in place and not returned, as if not kept.
    @inlinable public func take(_ id: String, visibleTo application: String? = nil) -> State? {
        states.withLock { states in
            guard let kept = states.kept(id, visibleTo: application) else { return nil }
            states.newer[id] = nil
            states.older[id] = nil
            return kept
        }
    }

    /// The state kept for `id`, left in place; nil for another application's, as for one not kept.
    @inlinable public func peek(_ id: String, visibleTo application: String? = nil) -> State? {
        states.withLock { $0.kept(id, visibleTo: application) }
    }
}
