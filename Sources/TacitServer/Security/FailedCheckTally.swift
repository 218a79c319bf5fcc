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

    /// The counter's key: a keyed hash of the number, never the number.
    let key: String
    let limit: RateLimit
    private let committed = Mutex(false)

    init(key: String, limit: RateLimit) {
        self.key = key
        self.limit = limit
    }

    /// What a check ending in `result` does to the run: a wrong code extends it (the one
    /// that fails its verification too), a right one ends it.
    func changes(for result: CheckResult) -> [RateChange] {
        switch result {
        case .completed: [.reset(key: key)]
        case .wrongCode, .tooManyAttempts: [.consume(key: key, limit: limit)]
        case .notPending: []
        }
    }

    /// The runner's check committed with `changes(for:)` in its transaction.
    func markCommitted() { committed.withLock { $0 = true } }

    /// Whether the count is already in the store, so the guard must not count again.
    var wasCommitted: Bool { committed.withLock { $0 } }
}
