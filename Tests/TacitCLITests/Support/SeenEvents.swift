import Synchronization
import TacitKit

/// Timeline events a stream delivered, and a wait for the ones a test needs.
final class SeenEvents: Sendable {
    private let state = Mutex<(events: [TimelineEvent], waiters: [AsyncStream<Void>.Continuation])>(([], []))

    var events: [TimelineEvent] { state.withLock { $0.events } }

    func append(_ event: TimelineEvent) {
        let waiters = state.withLock { state in
            state.events.append(event)
            return state.waiters
        }
        waiters.forEach { $0.yield() }
    }

    /// Returns once `enough` holds for the events seen (or the task is cancelled).
    func wait(until enough: @Sendable ([TimelineEvent]) -> Bool) async {
        let (changes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.waiters.append(continuation) }
        var iterator = changes.makeAsyncIterator()
        repeat {
            if enough(events) { return }
        } while await iterator.next() != nil
    }
}
