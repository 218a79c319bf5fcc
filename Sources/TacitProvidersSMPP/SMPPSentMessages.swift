import Foundation
import Synchronization

/// The messages this process submitted, by the SMSC's message id, so a receipt can be
/// matched to its verification and step: SMPP receipts carry the id and the number, not a
/// reference of Tacit's. Bounded; the oldest are forgotten first, and so are messages
/// whose final receipt came. Kept in memory only, so receipts for messages sent before a
/// restart are not matched.
final class SMPPSentMessages: Sendable {
    struct Entry: Sendable, Equatable {
        var verificationId: String
        var step: Int
        /// Digits of the number the message went to, compared with the receipt's source address.
        var destination: String
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var start = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    func record(_ messageId: String, _ entry: Entry) {
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: messageId) == nil { state.order.append(messageId) }
            while state.entries.count > capacity, state.start < state.order.count {
                state.entries.removeValue(forKey: state.order[state.start])
                state.start += 1
            }
            // Drops the spent head of the queue once it outgrows what is kept.
            if state.start > capacity {
                state.order.removeFirst(state.start)
                state.start = 0
            }
        }
    }

    func entry(_ messageId: String) -> Entry? {
        state.withLock { $0.entries[messageId] }
    }

    func forget(_ messageId: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: messageId) }
    }
}
