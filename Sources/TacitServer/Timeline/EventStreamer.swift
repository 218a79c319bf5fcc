import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// One SSE response body: the stored events after the resume point, then live ones,
/// with no gap and no duplicate across the switch (`EventFeed`), heartbeats while
/// idle, and the end right after `verification:summary`.
struct EventStreamer: Sendable {
    let store: any VerificationStore
    let hub: EventHub
    let clock: any TacitClock
    let heartbeatInterval: TimeInterval
    let frames: FrameCache

    static let ping = Array(": ping\n\n".utf8)

    /// Subscribes to the hub before anything is read from the store, so an event that
    /// commits while the backlog is read arrives live; seq numbers drop the overlap.
    func stream(_ id: String, after: Int) -> StreamWriter {
        let writer = StreamWriter()
        let feed = EventFeed(id: id, after: after, writer: writer, store: store, frames: frames)
        let subscription = hub.subscribe(id) { feed.receive($0) }
        let started = clock.now()
        let heartbeat = Task { await beat(from: started, into: writer) }
        let hub = self.hub
        // Whatever ends the stream (summary, client gone, shutdown) ends all of it.
        writer.onTermination = {
            hub.unsubscribe(subscription)
            heartbeat.cancel()
            feed.cancel()
        }
        feed.start()
        return writer
    }

    /// `id: <seq>` then the event's JSON on one `data:` line (JSON escapes newlines).
    static func frame(_ event: TimelineEvent) -> [UInt8] {
        Array("id: \(event.seq)\ndata: ".utf8) + JSONText.encode(event) + Array("\n\n".utf8)
    }

    /// Comments at fixed offsets from the stream's start, so proxies keep an idle
    /// stream open; a test's manual clock drives them.
    private func beat(from start: Date, into writer: StreamWriter) async {
        var beats = 0
        while !Task.isCancelled {
            beats += 1
            do {
                try await clock.sleep(until: start.addingTimeInterval(heartbeatInterval * Double(beats)))
            } catch {
                return
            }
            writer.write(Self.ping)
        }
    }
}
