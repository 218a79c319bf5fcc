import Foundation
import TacitCore

/// The leases of the rows in flight, kept by the worker's loop in one pass rather than by a
/// timer task beside every send: a send that answers within `renewal` of its lease being
/// written, nearly every one, then costs no renewal, no task and no timer.
extension SendWorker {
    /// How much of a lease may be left when it is renewed: it is written again once
    /// `renewal` of it has run.
    static var renewedBelow: TimeInterval { lease - renewal }

    /// Writes a fresh lease for every row in flight whose lease has run `renewal` since it
    /// was last written, all in one batch of the store's writer.
    func renewLeases() async {
        let now = runner.clock.now()
        let until = now.addingTimeInterval(Self.lease)
        let due = inFlight.withLock { held -> [String] in
            let ids = held.compactMap { id, end in end.timeIntervalSince(now) <= Self.renewedBelow ? id : nil }
            for id in ids { held[id] = until }
            return ids
        }
        guard !due.isEmpty else { return }
        let store = runner.store
        await withDiscardingTaskGroup { group in
            for id in due { group.addTask { try? await store.leaseSend(id: id, until: until) } }
        }
    }

    /// When the loop must next renew a lease (`distantFuture` with nothing in flight).
    func nextRenewal() -> Date {
        guard let earliest = inFlight.withLock({ $0.values.min() }) else { return .distantFuture }
        return earliest.addingTimeInterval(-Self.renewedBelow)
    }
}
