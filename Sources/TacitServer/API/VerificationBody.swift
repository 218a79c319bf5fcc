import Foundation
import TacitCore

/// The start / state response (SPEC §2), written with `JSONWriter` (it is on every
/// create and state read; Foundation's encoder costs more than the store here).
struct VerificationBody {
    private let members: [(String, JSONValue)]

    /// `checkURL` and `clientToken` are handed out once, in the create response; state
    /// reads never repeat a secret.
    init(_ v: Verification, checkURL: String? = nil, clientToken: String? = nil) {
        var members: [(String, JSONValue)] = []
        if let channel = v.activeChannel, channel == .silentAuth, let checkURL { members.append(("check_url", .string(checkURL))) }
        members.append(("channel", v.activeChannel.map { .string($0.rawValue) } ?? .null))
        if let clientRef = v.clientRef { members.append(("client_ref", .string(clientRef))) }
        if let clientToken { members.append(("client_token", .string(clientToken))) }
        members.append(("expires_at", v.expiresAt.map { .string(Timestamp.format($0)) } ?? .null))
        members.append(("request_id", .string(v.id)))
        members.append(("risk", .object(["sim_swapped": v.risk.simSwapped.map { .bool($0) } ?? .null])))
        members.append(("status", .string(v.status.rawValue)))
        members.append(("workflow", .array(v.workflow.map {
            .object(["channel": .string($0.channel.rawValue), "status": .string($0.status.rawValue)])
        })))
        self.members = members.sorted { $0.0 < $1.0 }
    }

    var bytes: [UInt8] {
        var writer = JSONWriter()
        writer.object(members)
        return writer.bytes
    }
}
