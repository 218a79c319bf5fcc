import Foundation
import Synchronization
import TacitCore

/// A sender that keeps every message it is handed (the "provider" in tests). When
/// `holding`, each send waits until `release()`, so a test can keep a request in flight.
public final class RecordingSender: MessageSender {
    private struct State {
        var messages: [OutboundMessage] = []
        var holding: Bool
        var held: [CheckedContinuation<Void, Never>] = []
        var waiters = CountWaiters()
    }
    private let state: Mutex<State>
    /// The provider every send is accepted by and the message id it gives each, as a
    /// provider's sender answers; nil answers as a sender that names no provider.
    private let acceptedAs: (provider: String, messageId: @Sendable (OutboundMessage) -> String)?

    public init(holding: Bool = false,
                acceptedAs: (provider: String, messageId: @Sendable (OutboundMessage) -> String)? = nil) {
        state = Mutex(State(holding: holding))
        self.acceptedAs = acceptedAs
    }

    /// A sender whose every send `provider` accepts under the id `messageId`.
    public static func accepting(_ provider: String, messageId: String) -> RecordingSender {
        RecordingSender(acceptedAs: (provider, { _ in messageId }))
    }

    public var messages: [OutboundMessage] { state.withLock { $0.messages } }
    public var count: Int { state.withLock { $0.messages.count } }

    /// The code in the last message sent to `number` (the message's trailing digits).
    public func lastCode(to number: String) -> String? {
        messages.last { $0.to == number }.map {
            String($0.body.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }.reversed())
        }
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (go, ready) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.messages.append(message)
                let ready = state.waiters.reached(state.messages.count)
                if state.holding { state.held.append(continuation); return (false, ready) }
                return (true, ready)
            }
            ready.forEach { $0.resume() }
            if go { continuation.resume() }
        }
        return acceptedAs.map { DeliveryResult(.accepted(by: $0.provider, messageId: $0.messageId(message))) }
            ?? .accepted
    }

    /// Suspends until at least `count` messages arrived, or the task is cancelled.
    public func waitFor(_ count: Int) async {
        let ticket = state.withLock { $0.waiters.ticket() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state in
                    state.waiters.wait(ticket, for: count, seen: state.messages.count, continuation)
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.cancel(ticket) }?.resume()
        }
    }

    /// Lets every held send finish, and later ones pass at once.
    public func release() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        held.forEach { $0.resume() }
    }
}
