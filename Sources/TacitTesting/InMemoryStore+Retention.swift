import Foundation
import TacitCore
import TacitStore

/// Retention's deletes, with the SQLite store's contract: oldest finished first, never a
/// pending verification nor one with a webhook still owed, at most `limit` per call.
extension InMemoryStore {
    public func sweepFinished(before cutoff: Date, limit: Int) async throws -> SweptVerifications {
        state.withLock { state in
            let owed = Set(state.outbox.messages.filter { $0.state == .pending }.map(\.verificationId))
            let ids = state.finishedAt.filter { $0.value < cutoff && !owed.contains($0.key) }
                .sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(limit).map(\.key)
            var swept = SweptVerifications()
            for id in ids {
                state.finishedAt[id] = nil
                if state.verifications.removeValue(forKey: id) != nil { swept.verifications += 1 }
                swept.events += state.events.removeValue(forKey: id)?.count ?? 0
            }
            let doomed = Set(ids)
            let before = state.outbox.messages.count
            let unowned = Set(state.outbox.messages.filter {
                $0.verificationId.isEmpty && $0.state != .pending && $0.createdAt < cutoff
            }.prefix(limit).map(\.id))
            state.outbox.messages.removeAll { doomed.contains($0.verificationId) || unowned.contains($0.id) }
            swept.outbox = before - state.outbox.messages.count
            state.sends = state.sends.filter { !doomed.contains($0.value.verificationId) }
            return swept
        }
    }

    public func sweepCallbackReplays(at now: Date, limit: Int) async throws -> Int {
        withOutbox { outbox in
            let expired = Array(outbox.callbacks.filter { $0.value <= now }.keys.prefix(limit))
            for key in expired { outbox.callbacks[key] = nil }
            return expired.count
        }
    }
}

extension InMemoryStore.State {
    /// Keeps the time a verification finished: its `endedAt`, else the write that finished it.
    mutating func noteFinish(_ verification: Verification, at: Date) {
        guard verification.status != .pending, finishedAt[verification.id] == nil else { return }
        finishedAt[verification.id] = verification.endedAt ?? at
    }
}
