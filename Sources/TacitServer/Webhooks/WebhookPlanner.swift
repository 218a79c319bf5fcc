import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Turns the machine's `.notifyWebhook` effects into outbox rows, inside the store
/// transaction that commits the change they report.
struct WebhookPlanner: Sendable {
    let endpoints: [WebhookEndpoint]
    /// The faces whose verifications owe their applications callbacks of the face's own.
    let faces: FaceDirectory
    let makeID: @Sendable () -> String

    init(endpoints: [WebhookEndpoint], faces: FaceDirectory = FaceDirectory([]),
         makeID: @escaping @Sendable () -> String = WebhookPlanner.messageID) {
        self.endpoints = endpoints
        self.faces = faces
        self.makeID = makeID
    }

    /// `msg_` and 32 letters from a CSPRNG: letters only, so the timeline's digit
    /// scrubbing leaves the id readable where it is recorded.
    static func messageID() -> String {
        let letters = Array("abcdefghijklmnop")
        return "msg_" + String(SecureRandom.bytes(16).flatMap { [letters[Int($0 >> 4)], letters[Int($0 & 0x0F)]] })
    }

    /// One row per event per endpoint that takes it, with the channel the machine
    /// named for the event (the step that started, failed or ended).
    func outbox(for effects: [WorkflowEffect], verification: Verification, at now: Date) -> [OutboxMessage] {
        let callbacks = faces.faces[verification.face]?.callbacks(for: effects, verification: verification, at: now,
                                                                   makeID: makeID) ?? []
        guard !endpoints.isEmpty else { return callbacks }
        let targets = endpoints(of: verification.applicationId)
        var rows: [OutboxMessage] = []
        for case .notifyWebhook(let event, let channel) in effects {
            let payload = WebhookPayload(event: event, verification: verification, channel: channel, at: now).encoded()
            for endpoint in targets where endpoint.accepts(event) {
                rows.append(OutboxMessage(id: makeID(), endpoint: endpoint.id, verificationId: verification.id,
                                          type: event.rawValue, payload: payload, createdAt: now))
            }
        }
        return rows + callbacks
    }

    /// One `verification.blocked` row per endpoint of the refused start's application that
    /// takes it. No verification exists, so the rows name none; no face owes a callback for it.
    func outbox(for refusal: FraudRefusal, at now: Date) -> [OutboxMessage] {
        let targets = endpoints(of: refusal.applicationId).filter { $0.accepts(.blocked) }
        guard !targets.isEmpty else { return [] }
        let payload = refusal.payload(at: now)
        return targets.map { endpoint in
            OutboxMessage(id: makeID(), endpoint: endpoint.id, verificationId: "", type: WebhookEvent.blocked.rawValue,
                          payload: payload, createdAt: now)
        }
    }

    /// The application's own endpoints, or the server-wide ones when it has none: no
    /// application's events reach another application's endpoint.
    func endpoints(of application: String) -> [WebhookEndpoint] {
        let own = endpoints.filter { $0.applicationId == application }
        return own.isEmpty ? endpoints.filter { $0.applicationId == nil } : own
    }
}

/// The JSON body of a webhook: `{"type", "timestamp", "data": {request_id, status, channel,
/// workflow, client_ref, face}}`. No number, code or token.
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
                "face": .string(v.face),
            ]),
        ]
    }

    func encoded() -> [UInt8] { JSONText.object(members) }
}
