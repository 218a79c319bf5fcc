import Synchronization

/// Counts the work `ClientTokenAuthority` does for an answer. Timing can't be tested
/// without flakiness; the structure can: two paths that hash, read and compare the
/// same number of times have no difference left but the store's own.
final class TokenCheckMeter: Sendable {
    enum Work: Hashable, Sendable {
        case hash
        case read
        case comparison
    }

    private let counts = Mutex<[Work: Int]>([:])

    func count(_ work: Work) {
        counts.withLock { $0[work, default: 0] += 1 }
    }

    /// What was counted since the last reset.
    var snapshot: [Work: Int] { counts.withLock { $0 } }

    func reset() {
        counts.withLock { $0 = [:] }
    }
}
