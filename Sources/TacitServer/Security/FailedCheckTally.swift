import Foundation
import Synchronization
import TacitCore
import TacitStore

/// One check's place in its number's run of wrong codes, handed from the failed-check
/// guard to the runner while the check's route runs (`current`). The runner adds the
/// counter's change to the check's own store transaction, so the wrong code and its count
/// commit together: two instances on one database share the run, and a crash between the
/// check and its count can't lose one. The guard counts outside only a check that did
/// not commit here (one judged by a silent provider).
final class FailedCheckTally: Sendable {
    /// The tally of the check the current task is running, if the guard counts it.
    @TaskLocal static var current: FailedCheckTally?

    /// The counters' keys (keyed hashes, never the number) with their limits: the
    /// application's run and the run over every application (`NumberCounter`).
    let counted: [(key: String, limit: RateLimit)]
    private let committed = Mutex(false)

    init(_ counted: [(key: String, limit: RateLimit)]) {
        self.counted = counted
    }

    /// What a check ending in `result` does to the runs: a wrong code extends them (the one
    /// that fails its verification too), a right one ends them.
    func changes(for result: CheckResult) -> [RateChange] {
        switch result {
        case .completed: counted.map { .reset(key: $0.key) }
        case .wrongCode, .tooManyAttempts: counted.map { .consume(key: $0.key, limit: $0.limit) }
        case .notPending: []
        }
    }

    /// The runner's check committed with `changes(for:)` in its transaction.
    func markCommitted() { committed.withLock { $0 = true } }

    /// Whether the count is already in the store, so the guard must not count again.
    var wasCommitted: Bool { committed.withLock { $0 } }
}
