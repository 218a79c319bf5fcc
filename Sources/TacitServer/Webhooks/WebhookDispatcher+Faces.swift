import Foundation
import TacitCore
import TacitStore

extension WebhookDispatcher {
    /// Delivers one face callback as any webhook is delivered (the same target guard,
    /// retries, backoff and timeline), to the target the face names for the application,
    /// signed as the face signs it. An application with no target takes none: the message
    /// is dropped quietly, as a vendor sends nothing to an app without a callback URL.
    ///
    /// A 410 from the target disables the application's callbacks to that URL only
    /// (`FaceCallbacks.disabledKey`): its rows then settle as they come due, without a
    /// request, and a new callback URL starts afresh, as a changed webhook URL does.
    func deliverFaceCallback(_ message: OutboxMessage, face: any ServedFace) async {
        guard message.state != .disabled, let target = await face.callbackTarget(for: message) else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
            return
        }
        let key = FaceCallbacks.disabledKey(endpoint: message.endpoint, url: target.url)
        let disabled = (try? await store.disabledWebhookEndpoints()) ?? []
        guard !disabled.contains(key) else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
            reports.yield(WebhookAttempt(messageId: message.id, verificationId: message.verificationId,
                                         type: message.type, attempt: message.attempts, statusCode: nil,
                                         result: .endpointDisabled))
            return
        }
        let endpoint = WebhookEndpoint(url: target.url.absoluteString, secrets: [], applicationId: nil)
        await attempt(message, to: target.url, endpoint: endpoint, disabling: key, headers: target.headers)
    }
}
