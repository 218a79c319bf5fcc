import Foundation
import Synchronization
import TacitCore
import TacitStore

/// The virtual phones of the ``VirtualRange``: what their screens would show, and the
/// only place a code is ever readable: never in logs or the timeline. In `--dev` it is
/// also every address's dev mailbox, keyed by the address (docs/api.md#the-dev-mailbox). One process keeps
/// it in memory; given a store, it keeps it there (bodies sealed), so that a code sent
/// through one instance shows in every instance's inbox on the same database.
public final class HandsetInbox: MessageSender {
    public struct Message: Codable, Sendable, Equatable {
        public var channel: String
        /// An email's subject; absent for every other channel.
        public var subject: String?
        public var body: String
        public var at: String
    }

    /// Messages kept per handset, oldest dropped first.
    static let capacity = 50

    private let messages = Mutex<[String: [Message]]>([:])
    /// Where messages are kept instead of `messages`, when given.
    private let store: (any DevStateStore)?
    private let clock: any TacitClock
    /// How long a message takes to arrive, as a slow provider's answer would
    /// (`TACIT_DEV_INBOX_LATENCY_MS`): the console shows a pending send, and the soak
    /// kills the server while one is in flight.
    private let latency: TimeInterval

    public init(clock: any TacitClock, latency: TimeInterval = 0, store: (any DevStateStore)? = nil) {
        self.clock = clock
        self.latency = latency
        self.store = store
    }

    public static func owns(_ number: String) -> Bool { VirtualRange.contains(number) }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        if latency > 0 {
            // Stopped while it waits: the message never reached the phone.
            do { try await clock.sleep(until: clock.now().addingTimeInterval(latency)) } catch {
                return DeliveryResult(refusal: .transient, reason: "provider_unreachable")
            }
        }
        let subject = message.channel == .email ? message.subject : nil
        let entry = Message(channel: message.channel.rawValue, subject: subject,
                            body: message.body, at: Timestamp.format(clock.now()))
        if let store {
            // The handset is unreachable while its store is: the send is retried, as for a provider that failed.
            do { try await store.appendInboxMessage(entry.stored, to: message.to, keeping: Self.capacity) } catch {
                return DeliveryResult(refusal: .transient, reason: "provider_unreachable")
            }
            return .accepted
        }
        messages.withLock { all in
            all[message.to, default: []].append(entry)
            if all[message.to]!.count > Self.capacity { all[message.to]!.removeFirst() }
        }
        return .accepted
    }

    /// The handset's (or the mailbox's) messages, oldest first.
    public func messages(for number: String) async throws -> [Message] {
        guard let store else { return messages.withLock { $0[number] ?? [] } }
        return try await store.inboxMessages(for: number).map { Message($0) }
    }
}

extension HandsetInbox.Message {
    // An email's subject is kept sealed with its body, on the first line: a subject is one
    // line, and the stores' inbox rows need no column of their own for it.
    init(_ stored: DevInboxMessage) {
        guard stored.channel == Channel.email.rawValue, let cut = stored.body.firstIndex(of: "\n") else {
            self.init(channel: stored.channel, body: stored.body, at: stored.at)
            return
        }
        self.init(channel: stored.channel, subject: String(stored.body[..<cut]),
                  body: String(stored.body[stored.body.index(after: cut)...]), at: stored.at)
    }

    var stored: DevInboxMessage {
        guard let subject else { return DevInboxMessage(channel: channel, body: body, at: at) }
        return DevInboxMessage(channel: channel, body: subject + "\n" + body, at: at)
    }
}
