import Synchronization
import TacitCore
import TacitHTTP
import TacitStore

/// One SSE stream's place in a verification's timeline: it writes each event once, in
/// seq order, with no gap. Live events are written straight from the hub on the
/// publisher's thread (no task per subscriber). While the stored backlog is read, or
/// after a gap (parallel transitions can publish out of commit order), live events
/// wait in `pending` and a catch-up task reads the store, which holds every event up
/// to any published one, then drains them.
final class EventFeed: Sendable {
    static let summaryLabel = "verification:summary"

    private struct State {
        var cursor: Int
        var catchingUp = true
        var pending: [TimelineEvent] = []
        /// How many of `pending` were received before the latest store read began: the
        /// store already held their predecessors, so a gap before one of them can't be filled.
        var covered = 0
        var ended = false
        var task: Task<Void, Never>?
    }

    /// What the caller does once the lock is released.
    private enum Next { case nothing, catchUp, finish }

    let id: String
    let writer: StreamWriter
    let store: any VerificationStore
    let frames: FrameCache
    private let state: Mutex<State>

    init(id: String, after: Int, writer: StreamWriter, store: any VerificationStore, frames: FrameCache) {
        self.id = id
        self.writer = writer
        self.store = store
        self.frames = frames
        state = Mutex(State(cursor: after))
    }

    /// Starts with the stored events after the resume point; subscribe to the hub first.
    func start() {
        launchCatchUp(first: true)
    }

    /// Live events from the hub.
    func receive(_ events: [TimelineEvent]) {
        let next = state.withLock { state -> Next in
            guard !state.ended else { return .nothing }
            if state.catchingUp {
                state.pending += events
                return .nothing
            }
            return deliver(events, &state)
        }
        act(next)
    }

    /// The stream ended (client gone, shutdown, or finished): stop any catch-up.
    func cancel() {
        state.withLock { state in
            state.ended = true
            return state.task
        }?.cancel()
    }

    /// Writes events in seq order, skipping those already sent; a gap parks the rest
    /// in `pending` and asks for a catch-up.
    private func deliver(_ events: [TimelineEvent], _ state: inout State) -> Next {
        for (index, event) in events.enumerated() where event.seq > state.cursor {
            if event.seq > state.cursor + 1 {
                state.catchingUp = true
                state.pending += events[index...]
                return .catchUp
            }
            if send(event, &state) { return .finish }
        }
        return .nothing
    }

    /// Writes one event's frame; true when it was the summary, the stream's last.
    private func send(_ event: TimelineEvent, _ state: inout State) -> Bool {
        state.cursor = event.seq
        writer.write(frames.frame(event))
        guard event.label == Self.summaryLabel else { return false }
        state.ended = true
        return true
    }

    private func act(_ next: Next) {
        switch next {
        case .nothing: break
        case .catchUp: launchCatchUp(first: false)
        case .finish: writer.finish()
        }
    }

    private func launchCatchUp(first: Bool) {
        let task = Task { await self.catchUp(first: first) }
        let ended = state.withLock { state in
            state.task = task
            return state.ended
        }
        if ended { task.cancel() }
    }

    /// Reads the store from the cursor until it is exhausted, then drains `pending`;
    /// loops while the pending events still leave a gap. On the first pass, a resume
    /// from at or past the summary of a finished verification ends the stream.
    private func catchUp(first: Bool) async {
        var first = first
        do {
            // Other instances' writes reach this one's hub only once it follows the verification.
            if first, let changes = store as? any ChangeFeed { try await changes.follow(id) }
            while !Task.isCancelled {
                let cursor = state.withLock { state in
                    state.covered = state.pending.count
                    return state.cursor
                }
                let page = try await store.events(id: id, after: cursor, limit: 500)
                // Only this task moves the cursor while catching up, and the store has no
                // gaps, so the page is written as it is.
                let (ended, summary) = state.withLock { state -> (Bool, Bool) in
                    guard !state.ended else { return (true, false) }
                    for event in page where event.seq > state.cursor {
                        if send(event, &state) { return (true, true) }
                    }
                    return (false, false)
                }
                if summary { return writer.finish() }
                if ended { return }
                if page.count == 500 { continue }
                if first, try await finished(cursor: state.withLock { $0.cursor }) { return writer.finish() }
                first = false
                let drained = state.withLock { state -> Next in
                    // Covered events are written if next in line; any that still leave a
                    // gap are dropped, so a catch-up never loops on the same events.
                    let pending = state.pending.sorted { $0.seq < $1.seq }
                    let coveredSeqs = Set(state.pending.prefix(state.covered).map(\.seq))
                    state.pending = []
                    state.catchingUp = false
                    let next = pending.filter { !coveredSeqs.contains($0.seq) || $0.seq <= state.cursor + 1 }
                    return deliver(next, &state)
                }
                if drained != .catchUp { return act(drained) }
            }
        } catch {
            writer.finish()
        }
    }

    private func finished(cursor: Int) async throws -> Bool {
        guard let verification = try await store.verification(id: id) else { return true }
        return verification.status.isFinished && cursor >= verification.lastSeq
    }
}
