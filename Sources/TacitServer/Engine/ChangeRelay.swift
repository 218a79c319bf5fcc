import Foundation
import TacitCore
import TacitStore

/// Carries a shared store's change feed here (docs/postgres.md#several-instances-the-change-feed): events another
/// instance committed reach the live streams here, and a webhook it enqueued rings this
/// instance's delivery worker at once instead of at its next idle poll.
///
/// A notice is only a hint: the events themselves are read from the store, by seq, as an
/// SSE resume reads them, and only for verifications someone here follows; the hub drops
/// what it already delivered, so this instance's own writes, published as they
/// committed, cost one lookup when their notice comes back.
struct ChangeRelay: Sendable {
    let feed: any ChangeFeed
    let store: any VerificationStore
    let hub: EventHub
    /// Rings the webhook worker's doorbell.
    let outboxWritten: @Sendable () -> Void
    /// Events read per store call.
    static let page = 500

    /// Listens until cancelled. Notices are handled in arrival order; each read they call
    /// for runs as a task of its own, so one slow read holds up no other verification.
    func run() async {
        let (notices, continuation) = AsyncStream.makeStream(of: StoreNotice.self)
        await withDiscardingTaskGroup { group in
            group.addTask {
                await feed.listen { continuation.yield($0) }
                continuation.finish()
            }
            for await notice in notices {
                handle(notice, in: &group)
            }
        }
    }

    private func handle(_ notice: StoreNotice, in group: inout DiscardingTaskGroup) {
        switch notice {
        case .outbox:
            outboxWritten()
        case .events(let id, let after, let through):
            guard hub.misses(id, after: after, through: through) else { return }
            group.addTask { await read(id, after: after, through: through) }
        case .resync:
            outboxWritten()
            for (id, delivered) in hub.followedVerifications() {
                group.addTask { await read(id, after: delivered, through: nil) }
            }
        }
    }

    /// Publishes the verification's stored events after `after`, up to `through` (to the
    /// end when nil). A read that fails is tried again a few times: a notice is not sent
    /// twice, and a live stream waiting on these events has no other way to get them
    /// until the next write.
    private func read(_ id: String, after: Int, through: Int?) async {
        var cursor = after
        var failures = 0
        while !Task.isCancelled, through.map({ cursor < $0 }) ?? true {
            do {
                let limit = min(through.map { $0 - cursor } ?? Self.page, Self.page)
                let events = try await store.events(id: id, after: cursor, limit: limit)
                hub.publish(events)
                guard let last = events.last?.seq, events.count == limit else { return }
                cursor = last
            } catch {
                failures += 1
                guard failures < 5 else { return }
                try? await Task.sleep(for: .milliseconds(50 << failures))
            }
        }
    }
}
