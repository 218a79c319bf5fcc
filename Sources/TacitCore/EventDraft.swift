import Foundation

/// Who saw a timeline event happen.
public enum EventSource: String, Codable, Sendable, CaseIterable {
    case server, device, `operator`, provider, webhook
}

/// How a timeline event turned out.
public enum EventOutcome: String, Codable, Sendable, CaseIterable {
    case info, success, failure
}

/// A value in an event draft, typed by how sensitive it is. Redaction turns each
/// kind into what may be stored; nothing but the redactor reads the raw value.
public enum EventValue: Sendable, Equatable {
    case text(String)
    case int(Int)
    case bool(Bool)
    case date(Date)
    /// A phone number: stored as `+99•••••5670`.
    case phone(String)
    /// A one-time code: stored as at most its last 2 digits.
    case code(String)
    /// A token, key or URL secret: never stored.
    case secret
    /// A provider's id for a message or call (an `SM…` sid, say): kept as given when it is
    /// one, since it is how an operator finds the message in the provider's console;
    /// anything else is scrubbed like free text.
    case providerId(String)
    /// A mobile network's MCC and MNC (`23410`) a receipt named: kept as given when it is 5 or 6
    /// digits, since it names an operator shared by millions of numbers, not a person or a code
    /// (docs/events.md#a-receipts-mobile-network); anything else is scrubbed like free text.
    case mobileNetwork(String)
    case list([EventValue])
    case object([String: EventValue])
    case null
}

/// An event before it has a sequence number, a time and redaction.
public struct EventDraft: Sendable, Equatable {
    public var label: String
    public var channel: Channel?
    public var source: EventSource
    public var outcome: EventOutcome
    public var note: String
    public var data: [String: EventValue]

    public init(
        _ label: String, channel: Channel? = nil, source: EventSource = .server,
        outcome: EventOutcome = .info, note: String, data: [String: EventValue] = [:]
    ) {
        self.label = label
        self.channel = channel
        self.source = source
        self.outcome = outcome
        self.note = note
        self.data = data
    }
}
