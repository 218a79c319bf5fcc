import Foundation
import TacitStore

extension InMemoryStore {
    public func claimSends(now: Date, lease: TimeInterval, limit: Int) async throws -> [QueuedSend] {
        state.withLock { state in
            let due = state.sends.values.filter { $0.dueAt <= now }
                .sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }.prefix(limit)
            return due.map { send in
                state.sends[send.id]?.dueAt = now.addingTimeInterval(lease)
                return send
            }
        }
    }

    public func leaseSend(id: String, until: Date) async throws {
        state.withLock { $0.sends[id]?.dueAt = until }
    }

    public func dropSends(ids: [String]) async throws {
        state.withLock { state in state.apply(sends: [], done: ids) }
    }

    public func nextSendDue() async throws -> Date? {
        state.withLock { $0.sends.values.map(\.dueAt).min() }
    }

    public func queuedSends(verificationId: String) async throws -> [QueuedSend] {
        state.withLock {
            $0.sends.values.filter { $0.verificationId == verificationId }.sorted { $0.createdAt < $1.createdAt }
        }
    }

    public func sendOutboxGauge(now: Date) async throws -> SendOutboxGauge {
        state.withLock { state in
            let rows = state.sends.values
            return SendOutboxGauge(queued: rows.filter { $0.dueAt <= now }.count,
                                   leased: rows.filter { $0.dueAt > now }.count,
                                   oldestCreatedAt: rows.map(\.createdAt).min())
        }
    }
}

extension InMemoryStore.State {
    /// Refuses a duplicate id, as the real stores' primary key does, before anything is written.
    func checkNew(_ rows: [QueuedSend]) throws {
        var seen = Set(sends.keys)
        for row in rows where !seen.insert(row.id).inserted { throw StoreError.backend("duplicate send") }
    }

    mutating func apply(sends added: [QueuedSend], done: [String]) {
        for row in added { sends[row.id] = row }
        for id in done { sends[id] = nil }
    }
}
