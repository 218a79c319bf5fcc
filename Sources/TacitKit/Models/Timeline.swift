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

    enum CodingKeys: String, CodingKey {
        case requestId = "request_id", summary, stages, events
    }
}
