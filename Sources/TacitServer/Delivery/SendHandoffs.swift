import Foundation
import Synchronization
import TacitCore
import TacitStore

/// Send rows this process committed, handed to its running send worker in memory with the
/// verification as committed, so the worker neither claims them (a write) nor reads the
/// verification again. Each row was written already leased (`dueAt` is its lease's end),
/// so no other worker takes it while it waits here; one left here past its lease (a full
/// worker, a stop, a crash) is the store's again, for the claim query like any other.
final class SendHandoffs: Sendable {
    /// A committed row and the state its commit left.
    struct Handoff: Sendable {
        var row: QueuedSend
        var verification: Verification
    }

    /// Rows kept waiting at most; past this a row waits in the store for its lease to end.
    static let limit = 4_096

    private struct State {
        /// Whether a worker is running to take rows: only then are rows written leased.
        var open = false
        var waiting: [Handoff] = []
        /// The earliest lease end of a row not kept, for the worker's next look at the store.
        var leftInStore: Date?
    }
    private let state = Mutex(State())

    /// Whether a row committed now is handed over, and so written leased to this process.
    var isOpen: Bool { state.withLock { $0.open } }

    /// The worker starts taking rows.
    func open() { state.withLock { $0.open = true } }

    /// The worker stopped: nothing is kept any more. Returns the rows still waiting, for
    /// the worker to give back to the store.
    func close() -> [QueuedSend] {
        state.withLock { state in
            state.open = false
            defer { state.waiting = [] }
            return state.waiting.map(\.row)
        }
    }

    /// Keeps `rows`, committed with `verification`; false when nothing will take them.
    func hand(_ rows: [QueuedSend], verification: Verification) -> Bool {
        state.withLock { state in
            guard state.open else { return false }
            for row in rows {
                if state.waiting.count < Self.limit {
                    state.waiting.append(Handoff(row: row, verification: verification))
                } else {
                    state.leftInStore = min(state.leftInStore ?? row.dueAt, row.dueAt)
                }
            }
            return true
        }
    }

    /// Up to `limit` rows, oldest first, and the earliest lease end of rows not kept since the last call.
    func take(_ limit: Int) -> (taken: [Handoff], leftInStore: Date?) {
        state.withLock { state in
            let taken = Array(state.waiting.prefix(max(limit, 0)))
            state.waiting.removeFirst(taken.count)
            defer { state.leftInStore = nil }
            return (taken, state.leftInStore)
        }
    }

    /// Forgets the rows named: the store has given them to the worker again, from a claim.
    func withdraw(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        state.withLock { $0.waiting.removeAll { ids.contains($0.row.id) } }
    }
}
