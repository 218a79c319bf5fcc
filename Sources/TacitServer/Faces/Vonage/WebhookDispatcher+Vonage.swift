import Foundation
import TacitCore
import TacitStore

extension WebhookDispatcher {
    /// Delivers one Vonage callback as any webhook is delivered (the same target guard,
    /// retries, backoff and timeline), to the application's callback URL with its signed JWT.
    /// An application with no callback URL or secret takes none: the message is dropped
    /// quietly, as Vonage sends nothing to an app without a status URL.
    func deliverVonage(_ message: OutboxMessage) async {
        guard let target = await vonage?.target(for: message.endpoint) else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
            return
        }
        let attempt = message.attempts + 1
        let endpoint = WebhookEndpoint(url: target.url.absoluteString, secrets: [], applicationId: nil)
        var report = WebhookAttempt(messageId: message.id, verificationId: message.verificationId, type: message.type,
                                    attempt: attempt, statusCode: nil, result: .refused)
        if await allowed(target.url) {
            let headers = VonageCallbackTargets.headers(message, secret: target.secret, now: clock.now())
            report.statusCode = await post(message.payload, to: target.url, headers: headers)
            report.result = await settle(message, endpoint: endpoint, attempt: attempt, status: report.statusCode)
        } else {
            try? await store.recordOutboxAttempt(id: message.id, outcome: .dead, at: clock.now())
        }
        await timeline(message.verificationId, report.draft(endpoint: endpoint.displayName))
        reports.yield(report)
    }
}

extension TacitApplication {
    /// The Vonage callbacks' targets, when the store keeps applications.
    func vonageCallbackTargets(_ secrets: ServerSecrets) -> VonageCallbackTargets? {
        (store as? any ApplicationStore).map { VonageCallbackTargets(store: $0, fields: secrets.fieldProtection) }
    }
}
