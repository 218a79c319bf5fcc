import Foundation
import TacitCore
import TacitStore

extension WebhookDispatcher {
    /// Delivers one face callback as any webhook is delivered (the same target guard,
    /// retries, backoff and timeline), to the target the face names for the application,
    /// signed as the face signs it. An application with no target takes none: the message
    /// is dropped quietly, as a vendor sends nothing to an app without a callback URL.
    func deliverFaceCallback(_ message: OutboxMessage, face: any ServedFace) async {
        guard let target = await face.callbackTarget(for: message) else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
            return
        }
        let attempt = message.attempts + 1
        let endpoint = WebhookEndpoint(url: target.url.absoluteString, secrets: [], applicationId: nil)
        var report = WebhookAttempt(messageId: message.id, verificationId: message.verificationId, type: message.type,
                                    attempt: attempt, statusCode: nil, result: .refused)
        if await allowed(target.url) {
            report.statusCode = await post(message.payload, to: target.url, headers: target.headers)
            report.result = await settle(message, endpoint: endpoint, attempt: attempt, status: report.statusCode)
        } else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
        }
        await timeline(message.verificationId, report.draft(endpoint: endpoint.displayName))
        reports.yield(report)
    }
}
