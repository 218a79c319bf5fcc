import Foundation
import Synchronization
import TacitCore

/// The virtual phones of the ``VirtualRange``: what their screens would show. It is the
/// phone's memory, not the server's, so it lives in memory only and never in the
/// store, logs or timeline (the only place a code is ever readable).
public final class HandsetInbox: MessageSender {
    public struct Message: Codable, Sendable, Equatable {
        public var channel: String
        public var body: String
        public var at: String
    }

    /// Messages kept per handset, oldest dropped first.
    static let capacity = 50

    private let messages = Mutex<[String: [Message]]>([:])
    private let clock: any TacitClock
    /// How long a message takes to arrive, as a slow provider's answer would
    /// (`TACIT_DEV_INBOX_LATENCY_MS`): the console shows a pending send, and the soak
    /// kills the server while one is in flight.
    private let latency: TimeInterval

    public init(clock: any TacitClock, latency: TimeInterval = 0) {
        self.clock = clock
        self.latency = latency
    }

    public static func owns(_ number: String) -> Bool { VirtualRange.contains(number) }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        if latency > 0 {
            // Stopped while it waits: the message never reached the phone.
            do { try await clock.sleep(until: clock.now().addingTimeInterval(latency)) } catch {
                return DeliveryResult(refusal: .transient, reason: "provider_unreachable")
            }
        }
        let entry = Message(channel: message.channel.rawValue, body: message.body, at: Timestamp.format(clock.now()))
        messages.withLock { all in
            all[message.to, default: []].append(entry)
            if all[message.to]!.count > Self.capacity { all[message.to]!.removeFirst() }
        }
        return .accepted
    }

    /// The handset's messages, oldest first.
    public func messages(for number: String) -> [Message] {
        messages.withLock { $0[number] ?? [] }
    }
}
