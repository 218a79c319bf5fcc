import Foundation

/// One code message owed to a phone, written in the same transaction as the step that
/// issued the code, so a step that committed always has its send, even when the process
/// dies before the provider is asked. The send worker deletes it in the transaction that
/// applies the provider's answer.
public struct QueuedSend: Sendable, Equatable {
    /// The idempotency key: stable per verification and step, so a send taken again after
    /// a crash carries the same key to providers that deduplicate by one.
    public var id: String
    public var verificationId: String
    public var step: Int
    /// The channel's raw value (`sms`, `voice`, `whatsapp`).
    public var channel: String
    /// The code, sealed with the server's key ring: a copy of the database holds no code.
    public var sealedCode: [UInt8]
    public var createdAt: Date
    /// When a worker may take it: at once for a new row, the end of its lease while a
    /// worker holds it.
    public var dueAt: Date

    public init(id: String, verificationId: String, step: Int, channel: String, sealedCode: [UInt8],
                createdAt: Date, dueAt: Date? = nil) {
        self.id = id
        self.verificationId = verificationId
        self.step = step
        self.channel = channel
        self.sealedCode = sealedCode
        self.createdAt = createdAt
        self.dueAt = dueAt ?? createdAt
    }

    /// The key of the send for `step` of `verificationId`. It is made from ids only, never the code.
    public static func key(verificationId: String, step: Int) -> String { keyPrefix(verificationId) + String(step) }

    /// What every key of `verificationId`'s sends starts with: a store keeping sends by key
    /// finds one verification's as a key range, with no index of their own.
    public static func keyPrefix(_ verificationId: String) -> String { "snd_\(verificationId)_" }

    /// The keys `verificationId`'s sends can have: from the prefix up to, not including, the prefix
    /// with its last character, `_`, replaced by the one after it. Another id that starts with this
    /// one and an underscore falls in the range too, so a reader also matches the verification.
    public static func keyRange(_ verificationId: String) -> (from: String, upTo: String) {
        let prefix = keyPrefix(verificationId)
        return (prefix, String(prefix.dropLast()) + "`")
    }
}

/// What the send outbox holds at one moment, for `/metrics`.
public struct SendOutboxGauge: Sendable, Equatable {
    /// Rows a worker may take now.
    public var queued: Int
    /// Rows a worker holds under an unexpired lease.
    public var leased: Int
    /// When the oldest row was written, nil when there is none.
    public var oldestCreatedAt: Date?

    public init(queued: Int = 0, leased: Int = 0, oldestCreatedAt: Date? = nil) {
        self.queued = queued
        self.leased = leased
        self.oldestCreatedAt = oldestCreatedAt
    }
}
