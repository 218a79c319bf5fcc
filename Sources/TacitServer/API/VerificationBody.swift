import Foundation
import TacitCore

/// The start / state response (SPEC §2).
struct VerificationBody: Encodable {
    struct Step: Encodable {
        var channel: String
        var status: String
    }
    var requestId: String
    var status: String
    var channel: String?
    var checkUrl: String?
    var clientToken: String?
    var expiresAt: String?
    var workflow: [Step]
    var risk: [String: Bool?]
    var clientRef: String?

    /// `checkURL` and `clientToken` are handed out once, in the create response; state
    /// reads never repeat a secret.
    init(_ v: Verification, checkURL: String? = nil, clientToken: String? = nil) {
        requestId = v.id
        status = v.status.rawValue
        channel = v.activeChannel?.rawValue
        checkUrl = v.activeChannel == .silentAuth ? checkURL : nil
        self.clientToken = clientToken
        expiresAt = v.expiresAt.map(Timestamp.format)
        workflow = v.workflow.map { Step(channel: $0.channel.rawValue, status: $0.status.rawValue) }
        risk = ["sim_swapped": v.risk.simSwapped]
        clientRef = v.clientRef
    }

    enum CodingKeys: String, CodingKey {
        case requestId = "request_id", status, channel, checkUrl = "check_url", clientToken = "client_token"
        case expiresAt = "expires_at", workflow, risk, clientRef = "client_ref"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestId, forKey: .requestId)
        try container.encode(status, forKey: .status)
        try container.encode(channel, forKey: .channel)
        try container.encodeIfPresent(checkUrl, forKey: .checkUrl)
        try container.encodeIfPresent(clientToken, forKey: .clientToken)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(workflow, forKey: .workflow)
        try container.encode(risk, forKey: .risk)
        try container.encodeIfPresent(clientRef, forKey: .clientRef)
    }
}
