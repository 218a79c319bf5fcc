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
struct WebhookPayload: Encodable {
    struct Data: Encodable {
        var requestId: String
        var status: String
        var channel: String?
        var workflow: [VerificationBody.Step]
        var clientRef: String?

        enum CodingKeys: String, CodingKey {
            case requestId = "request_id", status, channel, workflow, clientRef = "client_ref"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requestId, forKey: .requestId)
            try container.encode(status, forKey: .status)
            try container.encode(channel, forKey: .channel)
            try container.encode(workflow, forKey: .workflow)
            try container.encode(clientRef, forKey: .clientRef)
        }
    }
    var type: String
    var timestamp: String
    var data: Data

    init(event: WebhookEvent, verification v: Verification, channel: Channel?, at: Date) {
        type = event.rawValue
        timestamp = Timestamp.format(at)
        data = Data(requestId: v.id, status: v.status.rawValue, channel: channel?.rawValue,
                    workflow: v.workflow.map { VerificationBody.Step(channel: $0.channel.rawValue, status: $0.status.rawValue) },
                    clientRef: v.clientRef)
    }

    func encoded() -> [UInt8] { JSONText.encode(self) }
}
