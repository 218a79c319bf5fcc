import Foundation
import Synchronization

/// The bounded window of outstanding requests (TACIT_SMPP_WINDOW): a request takes a slot
/// before it is written and gives it back when answered, timed out or dropped. Waiters are
/// served in order; a freed slot passes straight to the next one.
final class SMPPWindow: Sendable {
    private struct State {
        var inFlight = 0
        var nextTicket: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var closed = false
    }

    let size: Int
    private let state = Mutex(State())

    init(size: Int) {
        self.size = max(1, size)
    }

    /// The requests written and not yet answered.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// The requests waiting for a slot.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Takes a slot, waiting for one when all are taken; false when the window closed (the
    /// link dropped) or the task was cancelled first, and then no slot is held.
    func acquire() async -> Bool {
        let ticket = state.withLock { state -> UInt64? in
            guard !state.closed else { return UInt64.max }
            guard state.inFlight >= size else { state.inFlight += 1; return nil }
            state.nextTicket += 1
            return state.nextTicket
        }
        guard let ticket else { return true }
        guard ticket != .max else { return false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let placed = state.withLock { state -> Bool? in
                    guard !state.closed, !Task.isCancelled else { return false }
                    // A slot may have been freed since the ticket was drawn.
                    if state.inFlight < size, state.waiting.isEmpty { state.inFlight += 1; return nil }
                    state.waiting[ticket] = continuation
                    return true
                }
                if placed == nil { continuation.resume(returning: true) }
                if placed == false { continuation.resume(returning: false) }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume(returning: false)
        }
    }

    /// Gives a slot back, to the longest waiter when there is one.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if let ticket = state.waiting.keys.min() { return state.waiting.removeValue(forKey: ticket) }
            state.inFlight -= 1
            return nil
        }
        next?.resume(returning: true)
    }

    /// Refuses every waiter and every later request: the link they were for is gone.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        waiting.forEach { $0.resume(returning: false) }
    }
}
