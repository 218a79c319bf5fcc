import Foundation

/// One stored step of a verification's timeline (docs/events.md#timeline-events). Only `Redactor` makes
/// these from drafts, so everything stored has been redacted when written.
public struct TimelineEvent: Codable, Sendable, Equatable {
    public var seq: Int
    public var at: Date
    public var requestId: String
    public var source: EventSource
    public var channel: Channel?
    public var label: String
    public var outcome: EventOutcome
    public var note: String
    public var data: [String: JSONValue]

    public init(
        seq: Int, at: Date, requestId: String, source: EventSource, channel: Channel?,
        label: String, outcome: EventOutcome, note: String, data: [String: JSONValue]
    ) {
        self.seq = seq
        self.at = at
        self.requestId = requestId
        self.source = source
        self.channel = channel
        self.label = label
        self.outcome = outcome
        self.note = note
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case seq, at, source, channel, label, outcome, note, data
        case requestId = "request_id"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(Timestamp.format(at), forKey: .at)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(source, forKey: .source)
        try container.encode(channel, forKey: .channel)
        try container.encode(label, forKey: .label)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(note, forKey: .note)
        try container.encode(data, forKey: .data)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        let text = try container.decode(String.self, forKey: .at)
        guard let date = Timestamp.parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: container, debugDescription: "not an RFC 3339 time")
        }
        at = date
        requestId = try container.decode(String.self, forKey: .requestId)
        source = try container.decode(EventSource.self, forKey: .source)
        channel = try container.decodeIfPresent(Channel.self, forKey: .channel)
        label = try container.decode(String.self, forKey: .label)
        outcome = try container.decode(EventOutcome.self, forKey: .outcome)
        note = try container.decode(String.self, forKey: .note)
        data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data) ?? [:]
    }
}
