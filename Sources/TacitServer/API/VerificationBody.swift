import Foundation
import TacitCore

/// The start / state response (docs/api.md#the-verification), written with `JSONWriter` (it is on every
/// create and state read; Foundation's encoder costs more than the store here).
struct VerificationBody {
    private let members: [String: JSONValue]

    /// `checkURL` and `clientToken` are handed out once, in the create response; state
    /// reads never repeat a secret.
    init(_ v: Verification, checkURL: String? = nil, clientToken: String? = nil) {
        var members: [String: JSONValue] = [
            "channel": v.activeChannel.map { .string($0.rawValue) } ?? .null,
            "expires_at": v.expiresAt.map { .string(Timestamp.format($0)) } ?? .null,
            "face": .string(v.face),
            "locale": .object(["tag": .string(v.locale), "source": v.localeSource.map { .string($0) } ?? .null]),
            "request_id": .string(v.id),
            "risk": .object(["sim_swapped": v.risk.simSwapped.map { .bool($0) } ?? .null]),
            "status": .string(v.status.rawValue),
            "workflow": Self.workflow(v),
        ]
        if v.activeChannel == .silentAuth, let checkURL {
            members["check_url"] = .string(checkURL)
            // A check URL that ends at its provider ends with the provider's id, not Tacit's:
            // the device needs it to tell the answer for its own check from another's.
            if let check = v.silentCheck, check.step == v.state.activeStep?.index {
                members["provider_request_id"] = .string(check.reference)
            }
        }
        if let clientRef = v.clientRef { members["client_ref"] = .string(clientRef) }
        if let clientToken { members["client_token"] = .string(clientToken) }
        self.members = members
    }

    /// Each step's channel and status, as the state response and webhooks show them.
    static func workflow(_ v: Verification) -> JSONValue {
        .array(v.workflow.map {
            .object(["channel": .string($0.channel.rawValue), "status": .string($0.status.rawValue)])
        })
    }

    /// The JSON, keys sorted.
    var bytes: [UInt8] { JSONText.object(members) }
}
