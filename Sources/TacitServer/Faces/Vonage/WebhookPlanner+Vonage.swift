import Foundation
import TacitCore
import TacitStore

extension WebhookPlanner {
    /// The Vonage callbacks a face-started verification owes its application, as outbox
    /// rows beside the change they report, so they are delivered as durably as webhooks.
    /// Other faces' verifications owe none.
    func vonageCallbacks(for effects: [WorkflowEffect], verification: Verification, at now: Date) -> [OutboxMessage] {
        guard verification.face == Verification.vonageFace else { return [] }
        var rows: [OutboxMessage] = []
        for case .notifyWebhook(let event, let channel) in effects {
            for (type, body) in VonageCallbackPayload.bodies(for: event, channel: channel, verification: verification, at: now) {
                rows.append(OutboxMessage(id: makeID(), endpoint: VonageCallbackPayload.endpointPrefix + verification.applicationId,
                                          verificationId: verification.id, type: type, payload: body, createdAt: now))
            }
        }
        return rows
    }
}
