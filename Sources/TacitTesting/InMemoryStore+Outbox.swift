import Foundation
import TacitStore

extension InMemoryStore {
    public func enqueueOutbox(_ messages: [OutboxMessage]) async throws {
        try withOutbox { outbox in
            try outbox.checkNew(messages)
            outbox.add(messages)
        }
    }

    public func claimOutbox(now: Date, lease: TimeInterval, limit: Int) async throws -> [OutboxMessage] {
        withOutbox { $0.claim(now: now, lease: lease, limit: limit) }
    }

    public func recordOutboxAttempt(id: String, outcome: OutboxOutcome, at: Date) async throws {
        withOutbox { $0.record(id: id, outcome: outcome) }
    }

    public func nextOutboxDue() async throws -> Date? {
        withOutbox { $0.messages.filter { $0.state == .pending }.map(\.nextAttemptAt).min() }
    }

    public func outboxMessage(id: String) async throws -> OutboxMessage? {
        withOutbox { $0.messages.first { $0.id == id } }
    }

    public func outboxMessages(verificationId: String) async throws -> [OutboxMessage] {
        withOutbox { $0.messages.filter { $0.verificationId == verificationId } }
    }

    public func disableWebhookEndpoint(_ endpoint: String, at: Date) async throws {
        withOutbox { outbox in
            outbox.disabled.insert(endpoint)
            for index in outbox.messages.indices
            where outbox.messages[index].endpoint == endpoint && outbox.messages[index].state == .pending {
                outbox.messages[index].state = .disabled
            }
        }
    }

    public func disabledWebhookEndpoints() async throws -> Set<String> {
        withOutbox { $0.disabled }
    }

    public func rememberCallback(key: String, expiresAt: Date, now: Date) async throws -> Bool {
        withOutbox { outbox in
            if let until = outbox.callbacks[key], until > now { return false }
            outbox.callbacks[key] = expiresAt
            return true
        }
    }
}

/// The in-memory outbox rows, replay cache and disabled endpoints.
struct InMemoryOutbox {
    var messages: [OutboxMessage] = []
    var disabled: Set<String> = []
    var callbacks: [String: Date] = [:]

    /// Refuses duplicate ids, as the real stores' primary key does, before anything is written.
    func checkNew(_ rows: [OutboxMessage]) throws {
        var seen = Set(messages.map(\.id))
        for row in rows where !seen.insert(row.id).inserted { throw StoreError.backend("duplicate outbox message") }
    }

    mutating func add(_ rows: [OutboxMessage]) { messages += rows }

    mutating func claim(now: Date, lease: TimeInterval, limit: Int) -> [OutboxMessage] {
        let due = messages.indices.filter { messages[$0].state == .pending && messages[$0].nextAttemptAt <= now }
            .sorted { messages[$0].nextAttemptAt < messages[$1].nextAttemptAt }.prefix(limit)
        return due.map { index in
            if disabled.contains(messages[index].endpoint) {
                messages[index].state = .disabled
                return messages[index]
            }
            let claimed = messages[index]
            messages[index].nextAttemptAt = now.addingTimeInterval(lease)
            return claimed
        }
    }

    mutating func record(id: String, outcome: OutboxOutcome) {
        guard let index = messages.firstIndex(where: { $0.id == id }), messages[index].state == .pending else { return }
        messages[index].attempts += 1
        switch outcome {
        case .delivered: messages[index].state = .delivered
        case .dead: messages[index].state = .dead
        case .retry(let at): messages[index].nextAttemptAt = at
        }
    }
}
