import Foundation

/// One step of a verification's workflow and what happened to it.
public struct WorkflowStep: Codable, Sendable, Equatable {
    public var channel: Channel
    public var status: StepStatus
    public var startedAt: Date?
    public var endedAt: Date?
    /// Why the step ended other than completed.
    public var endReason: EndReason?

    public init(channel: Channel, status: StepStatus = .unused, startedAt: Date? = nil, endedAt: Date? = nil,
                endReason: EndReason? = nil) {
        self.channel = channel
        self.status = status
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.endReason = endReason
    }

    /// The end reason's wire string (`timeout`, `rejected`, `no_coverage`), as stored.
    public var reason: String? { endReason?.rawValue }

    enum CodingKeys: String, CodingKey {
        case channel, status, startedAt, endedAt, reason
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        channel = try container.decode(Channel.self, forKey: .channel)
        status = try container.decode(StepStatus.self, forKey: .status)
        startedAt = try container.decodeIfPresent(Date.self, forKey: .startedAt)
        endedAt = try container.decodeIfPresent(Date.self, forKey: .endedAt)
        endReason = try container.decodeIfPresent(String.self, forKey: .reason).map(EndReason.init(rawValue:))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channel, forKey: .channel)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(startedAt, forKey: .startedAt)
        try container.encodeIfPresent(endedAt, forKey: .endedAt)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}
