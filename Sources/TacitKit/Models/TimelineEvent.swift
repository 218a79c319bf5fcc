import Foundation

/// One redacted timeline event (docs/events.md#timeline-events).
public struct TimelineEvent: Codable, Sendable, Equatable {
    /// Gap-free sequence number within the request.
    public var seq: Int
    public var at: Date
    public var requestId: String
    /// `server`, `device`, `operator`, `provider` or `webhook`.
    public var source: String
    public var channel: String?
    /// `channel:event`, e.g. `sms:code_sent`.
    public var label: String
    /// `info`, `success` or `failure`.
    public var outcome: String
    public var note: String?
    public var data: [String: JSONValue]?

    public init(
        seq: Int, at: Date = Date(), requestId: String, source: String = "server",
        channel: String? = nil, label: String, outcome: String = "info",
        note: String? = nil, data: [String: JSONValue]? = nil
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

    /// The part of the label before the colon, e.g. `sms`.
    public var labelChannel: Substring { label.split(separator: ":").first ?? "" }

    /// The part of the label after the colon, e.g. `code_sent`.
    public var labelEvent: Substring {
        guard let colon = label.firstIndex(of: ":") else { return "" }
        return label[label.index(after: colon)...]
    }

    enum CodingKeys: String, CodingKey {
        case seq, at, requestId = "request_id", source, channel, label, outcome, note, data
    }
}

/// A device-side event, posted with the verification's client token.
public struct DeviceEvent: Codable, Sendable, Equatable {
    /// `device:<name>`.
    public var label: String
    public var outcome: String
    public var note: String?
    public var data: [String: JSONValue]?

    public init(name: String, outcome: String = "info", note: String? = nil, data: [String: JSONValue]? = nil) {
        self.label = "device:\(name)"
        self.outcome = outcome
        self.note = note
        self.data = data
    }
}
