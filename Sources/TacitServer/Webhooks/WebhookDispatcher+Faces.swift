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
        let endpoint = WebhookEndpoint(url: target.url.absoluteString, secrets: [], applicationId: nil)
        await attempt(message, to: target.url, endpoint: endpoint, headers: target.headers)
    }
}
