import Foundation
import TacitCore
import TacitStore

/// One SSE response body: the stored events after the resume point, then live ones,
/// with no gap and no duplicate across the switch, heartbeats while idle, and the end
/// right after `verification:summary`.
struct EventStreamer: Sendable {
    let store: any VerificationStore
    let hub: EventHub
    let clock: any TacitClock
    let heartbeatInterval: TimeInterval
    let frames: FrameCache

    static let summaryLabel = "verification:summary"
    static let ping = Array(": ping\n\n".utf8)

    /// Subscribes to the hub before anything is read from the store, so an event that
    /// commits while the backlog is read arrives live; seq numbers drop the overlap.
    func stream(_ id: String, after: Int) -> AsyncStream<[UInt8]> {
        let live = hub.subscribe(id)
        let started = clock.now()
        return AsyncStream { continuation in
            // Both tasks belong to this stream: the client leaving cancels them.
            let heartbeat = Task { await beat(from: started, into: continuation) }
            let relay = Task {
                await self.relay(id, after: after, live: live, into: continuation)
                heartbeat.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                relay.cancel()
                heartbeat.cancel()
            }
        }
    }

    private func relay(_ id: String, after: Int, live: AsyncStream<TimelineEvent>,
                       into continuation: AsyncStream<[UInt8]>.Continuation) async {
        var cursor = after
        do {
            if try await catchUp(id, cursor: &cursor, into: continuation) { return }
            if try await finished(id, cursor: cursor) { return }
            for await event in live where event.seq > cursor {
                // Parallel transitions may publish out of commit order; the store has
                // every event up to this one, so a skipped seq is read from there.
                if event.seq > cursor + 1 {
                    if try await catchUp(id, cursor: &cursor, into: continuation) { return }
                    continue
                }
                if send(event, cursor: &cursor, into: continuation) { return }
            }
        } catch {
            return
        }
    }

    /// Sends every stored event after `cursor`. True when the summary was among them.
    private func catchUp(_ id: String, cursor: inout Int, into continuation: AsyncStream<[UInt8]>.Continuation) async throws -> Bool {
        while true {
            let page = try await store.events(id: id, after: cursor, limit: 500)
            for event in page where send(event, cursor: &cursor, into: continuation) { return true }
            if page.count < 500 { return false }
        }
    }

    /// A resume from at or past the summary of a finished verification has nothing left to wait for.
    private func finished(_ id: String, cursor: Int) async throws -> Bool {
        guard let verification = try await store.verification(id: id) else { return true }
        return verification.status.isFinished && cursor >= verification.lastSeq
    }

    private func send(_ event: TimelineEvent, cursor: inout Int, into continuation: AsyncStream<[UInt8]>.Continuation) -> Bool {
        guard event.seq > cursor else { return false }
        cursor = event.seq
        continuation.yield(frames.frame(event))
        return event.label == Self.summaryLabel
    }

    /// `id: <seq>` then the event's JSON on one `data:` line (JSON escapes newlines).
    static func frame(_ event: TimelineEvent) -> [UInt8] {
        Array("id: \(event.seq)\ndata: ".utf8) + JSONText.encode(event) + Array("\n\n".utf8)
    }

    /// Comments at fixed offsets from the stream's start, so proxies keep an idle
    /// stream open; a test's manual clock drives them.
    private func beat(from start: Date, into continuation: AsyncStream<[UInt8]>.Continuation) async {
        var beats = 0
        while !Task.isCancelled {
            beats += 1
            do { try await clock.sleep(until: start.addingTimeInterval(heartbeatInterval * Double(beats))) } catch { return }
            continuation.yield(Self.ping)
        }
    }
}
