import Foundation
import TacitCore
import TacitServer

/// The Vonage Verify v2 callbacks (research §1.7) a verification started through the face
/// owes its application: an `event` when a silent-auth or WhatsApp step ends, and the
/// `summary` when the verification ends. No number, code or token is in either.
enum VonageCallbackPayload {
    /// The callbacks `event` owes, in order: an `event` when a silent-auth or WhatsApp step
    /// ended with it, then the `summary` when the verification ended.
    static func bodies(
        for event: WebhookEvent, channel: Channel?, verification v: Verification, at now: Date
    ) -> [(type: String, body: [UInt8])] {
        var bodies: [(type: String, body: [UInt8])] = []
        let stepEnded = event == .channelFailed || event == .completed
        if stepEnded, let channel, channel == .silentAuth || channel == .whatsapp,
           let members = step(v, channel, at: now) {
            bodies.append(("vonage.event", JSONText.object(members)))
        }
        if [.completed, .failed, .expired].contains(event) {
            bodies.append(("vonage.summary", JSONText.object(summary(v))))
        }
        return bodies
    }

    static func summary(_ v: Verification) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "request_id": .string(v.id), "type": .string("summary"),
            "submitted_at": .string(Timestamp.format(v.createdAt)),
            "status": .string(v.status == .completed ? "completed" : v.status == .expired ? "expired" : "failed"),
            "channel_timeout": .number(Double(v.channelTimeout)),
            "workflow": .array(v.workflow.map { step in
                var item: [String: JSONValue] = ["channel": .string(step.channel.rawValue),
                                                 "status": .string(status(of: step))]
                if let started = step.startedAt { item["initiated_at"] = .string(Timestamp.format(started)) }
                return .object(item)
            }),
        ]
        if let ref = v.clientRef { members["client_ref"] = .string(ref) }
        return members
    }

    /// The `event` for the step on `channel` that just ended, when a Vonage app would get one.
    static func step(_ v: Verification, _ channel: Channel, at now: Date) -> [String: JSONValue]? {
        guard let step = v.workflow.last(where: { $0.channel == channel && $0.endedAt != nil }) else { return nil }
        var members: [String: JSONValue] = [
            "request_id": .string(v.id), "type": .string("event"), "channel": .string(channel.rawValue),
            "status": .string(status(of: step)), "triggered_at": .string(Timestamp.format(now)),
            "finalized_at": .string(Timestamp.format(step.endedAt ?? now)),
            "channel_timeout": .number(Double(v.channelTimeout)),
        ]
        if let ref = v.clientRef { members["client_ref"] = .string(ref) }
        return members
    }

    /// A step's status in Vonage's words: a SIM that doesn't match is `user_rejected`.
    static func status(of step: WorkflowStep) -> String {
        switch step.status {
        case .unused, .active: "unused"
        case .completed: "completed"
        case .expired: "expired"
        case .rejected: "user_rejected"
        case .failed: "failed"
        }
    }
}
