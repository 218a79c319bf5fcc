import Foundation

/// The export of one verification's timeline: `GET /v1/verifications/{id}/timeline`.
public struct Timeline: Codable, Sendable, Equatable {
    /// The verification's outcome in one line.
    public struct Summary: Codable, Sendable, Equatable {
        public var status: VerificationStatus
        public var workflow: [Verification.Step]
        public var startedAt: Date?
        public var endedAt: Date?
        public var durationMs: Int?
        enum CodingKeys: String, CodingKey {
            case status, workflow, startedAt = "started_at", endedAt = "ended_at", durationMs = "duration_ms"
        }
    }

    /// One workflow step with its duration.
    public struct Stage: Codable, Sendable, Equatable {
        public var channel: Channel
        public var status: StepStatus
        public var startedAt: Date?
        public var endedAt: Date?
        public var durationMs: Int?
        enum CodingKeys: String, CodingKey {
            case channel, status, startedAt = "started_at", endedAt = "ended_at", durationMs = "duration_ms"
        }
    }

    public var requestId: String
    public var summary: Summary
    public var stages: [Stage]
    public var events: [TimelineEvent]
    /// Whether the server left device events out to keep the export within its size; the
    /// server's own events, the summary among them, are always in it.
    public var partial: Bool
    /// How many device events were left out.
    public var eventsLeftOut: Int

    enum CodingKeys: String, CodingKey {
        case requestId = "request_id", summary, stages, events, partial, eventsLeftOut = "events_left_out"
    }

    /// An export written before exports could be partial holds every event.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestId = try container.decode(String.self, forKey: .requestId)
        summary = try container.decode(Summary.self, forKey: .summary)
        stages = try container.decode([Stage].self, forKey: .stages)
        events = try container.decode([TimelineEvent].self, forKey: .events)
        partial = try container.decodeIfPresent(Bool.self, forKey: .partial) ?? false
        eventsLeftOut = try container.decodeIfPresent(Int.self, forKey: .eventsLeftOut) ?? 0
    }
}
