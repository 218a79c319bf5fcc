import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Turns the machine's `.notifyWebhook` actions into outbox rows, inside the store
/// transaction that commits the change they report.
struct WebhookPlanner: Sendable {
    let endpoints: [WebhookEndpoint]
    let makeID: @Sendable () -> String

    init(endpoints: [WebhookEndpoint], makeID: @escaping @Sendable () -> String = WebhookPlanner.messageID) {
        self.endpoints = endpoints
        self.makeID = makeID
    }

    /// `msg_` and 32 letters from a CSPRNG: letters only, so the timeline's digit
    /// scrubbing leaves the id readable where it is recorded.
    static func messageID() -> String {
        let letters = Array("abcdefghijklmnop")
        return "msg_" + String(SecureRandom.bytes(16).flatMap { [letters[Int($0 >> 4)], letters[Int($0 & 0x0F)]] })
    }

    /// One row per event per endpoint that takes it. The channel of an event is that of
    /// the step the machine spoke of just before it (the step that started, failed or ended).
    func outbox(for actions: [WorkflowAction], verification: Verification, at now: Date) -> [OutboxMessage] {
        guard !endpoints.isEmpty else { return [] }
        var rows: [OutboxMessage] = []
        var channel: Channel?
        for action in actions {
            switch action {
            case .emit(let draft): channel = draft.channel ?? channel
            case .notifyWebhook(let event):
                let payload = WebhookPayload(event: event, verification: verification, channel: channel, at: now).encoded()
                for endpoint in endpoints where endpoint.accepts(event) {
                    rows.append(OutboxMessage(id: makeID(), endpoint: endpoint.id, verificationId: verification.id,
                                              type: event.rawValue, payload: payload, createdAt: now))
                }
            default: continue
            }
        }
        return rows
    }
}

/// The JSON body of a webhook: `{"type", "timestamp", "data": {request_id, status, channel,
/// workflow, client_ref}}`. No number, code or token.
struct WebhookPayload {
    let members: [String: JSONValue]

    init(event: WebhookEvent, verification v: Verification, channel: Channel?, at: Date) {
        members = [
            "type": .string(event.rawValue),
            "timestamp": .string(Timestamp.format(at)),
            "data": .object([
                "request_id": .string(v.id),
                "status": .string(v.status.rawValue),
                "channel": channel.map { .string($0.rawValue) } ?? .null,
                "workflow": VerificationBody.workflow(v),
                "client_ref": v.clientRef.map { .string($0) } ?? .null,
            ]),
        ]
    }

    func encoded() -> [UInt8] { JSONText.object(members) }
}
