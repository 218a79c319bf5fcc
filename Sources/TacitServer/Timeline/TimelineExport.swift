import Foundation
import TacitCore

/// `GET /v1/verifications/{id}/timeline`: everything a developer needs to read, share
/// or replay one verification. Built from stored (already redacted) events and the
/// workflow's step times; steps never tried keep null times. `partial` says whether
/// device events were left out to keep it within its size (see `ExportEvents`); the
/// events the server wrote, the summary among them, are always in it.
struct TimelineExport: Encodable {
    struct Summary: Encodable {
        var status: VerificationStatus
        var workflow: [StepStatusEntry]
        var span: Span
    }

    struct StepStatusEntry: Encodable {
        var channel: Channel
        var status: StepStatus
    }

    struct Stage: Encodable {
        var channel: Channel
        var status: StepStatus
        var span: Span
    }

    /// A start, an end and the milliseconds between; nulls when not known (yet).
    struct Span {
        var start: Date?
        var end: Date?
        var durationMs: Int? {
            guard let start, let end else { return nil }
            return max(0, Int((end.timeIntervalSince(start) * 1000).rounded()))
        }
    }

    var requestId: String
    var exportedAt: Date
    var summary: Summary
    var stages: [Stage]
    var events: [TimelineEvent]
    /// Device events left out; 0 when the export holds every event.
    var eventsLeftOut = 0

    init(_ verification: Verification, events: [TimelineEvent], exportedAt: Date) {
        requestId = verification.id
        self.exportedAt = exportedAt
        summary = Summary(status: verification.status,
                          workflow: verification.workflow.map {
                              StepStatusEntry(channel: $0.channel, status: $0.status)
                          },
                          span: Span(start: verification.createdAt, end: verification.endedAt))
        stages = verification.workflow.map {
            Stage(channel: $0.channel, status: $0.status, span: Span(start: $0.startedAt, end: $0.endedAt))
        }
        self.events = events
    }

    enum Keys: String, CodingKey {
        case requestId = "request_id", exportedAt = "exported_at", summary, stages, events
        case partial, eventsLeftOut = "events_left_out"
        case status, workflow, channel
        case startedAt = "started_at", endedAt = "ended_at", durationMs = "duration_ms"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(Timestamp.format(exportedAt), forKey: .exportedAt)
        try container.encode(summary, forKey: .summary)
        try container.encode(stages, forKey: .stages)
        try container.encode(events, forKey: .events)
        try container.encode(eventsLeftOut > 0, forKey: .partial)
        try container.encode(eventsLeftOut, forKey: .eventsLeftOut)
    }
}

extension TimelineExport.Summary {
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TimelineExport.Keys.self)
        try container.encode(status, forKey: .status)
        try container.encode(workflow, forKey: .workflow)
        try span.encode(into: &container)
    }
}

extension TimelineExport.Stage {
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: TimelineExport.Keys.self)
        try container.encode(channel, forKey: .channel)
        try container.encode(status, forKey: .status)
        try span.encode(into: &container)
    }
}

extension TimelineExport.Span {
    /// Writes explicit nulls: a reader should see that a step was never tried.
    func encode(into container: inout KeyedEncodingContainer<TimelineExport.Keys>) throws {
        try container.encode(start.map(Timestamp.format), forKey: .startedAt)
        try container.encode(end.map(Timestamp.format), forKey: .endedAt)
        try container.encode(durationMs, forKey: .durationMs)
    }
}
