import Foundation
import TacitCore
import TacitServer

/// The verification resource exactly as Twilio's Verify v2 returns it
/// (`verify.v2.service.verification`), and the VerificationCheck resource beside it.
/// Each workflow step is one send attempt: the first send and every re-send since.
struct TwilioVerificationBody {
    var verification: Verification
    var account: TwilioAccount
    /// The check URL, on the answer that started the silent step only: it is never stored.
    var snaURL: String?

    /// Tacit's status in Twilio's words: five wrong codes are `max_attempts_reached`.
    var status: String {
        switch verification.status {
        case .pending: "pending"
        case .completed: "approved"
        case .cancelled: "canceled"
        case .expired: "expired"
        case .failed: verification.failedAttempts >= VerificationOptions.maxAttempts ? "max_attempts_reached" : "failed"
        }
    }

    /// The channel of the latest send.
    var channel: String {
        TwilioChannel(verification.activeChannel ?? verification.workflow.last?.channel ?? .sms).rawValue
    }

    var dateUpdated: Date {
        let moments = verification.workflow.flatMap { [$0.startedAt, $0.endedAt] }.compactMap { $0 }
            + [verification.endedAt].compactMap { $0 }
        return moments.max() ?? verification.createdAt
    }

    var resource: [String: JSONValue] {
        let sid = verification.id
        let attempts: [JSONValue] = verification.workflow.enumerated().compactMap { index, step in
            guard let started = step.startedAt else { return nil }
            return .object(["attempt_sid": .string(TwilioFace.attemptSid(sid, index: index)),
                            "channel": .string(TwilioChannel(step.channel).rawValue),
                            "time": .string(TwilioFace.date(started))])
        }
        return common.merging([
            "lookup": .object([:]),
            "send_code_attempts": .array(attempts),
            "sna": snaURL.map { .object(["url": .string($0)]) } ?? .null,
            "url": .string(account.baseURL + "/v2/Services/\(account.serviceSid)/Verifications/\(sid)"),
        ]) { first, _ in first }
    }

    /// The VerificationCheck answer: the same fields but the send attempts and links,
    /// and the SNA error list (empty for a silent check, absent for a code).
    var check: [String: JSONValue] {
        common.merging([
            "sna_attempts_error_codes": channel == TwilioChannel.sna.rawValue ? .array([]) : .null,
        ]) { first, _ in first }
    }

    private var common: [String: JSONValue] {
        [
            "sid": .string(verification.id), "service_sid": .string(account.serviceSid),
            "account_sid": .string(account.accountSid),
            "to": .string(verification.contact), "channel": .string(channel), "status": .string(status),
            "valid": .bool(verification.status == .completed), "amount": .null, "payee": .null,
            "date_created": .string(TwilioFace.date(verification.createdAt)),
            "date_updated": .string(TwilioFace.date(dateUpdated)),
        ]
    }

    var bytes: [UInt8] { JSONText.object(resource) }
    var checkBytes: [UInt8] { JSONText.object(check) }
}

/// Whose Twilio-style credentials a request came with: the sids the resource names and
/// the base URL its `url` points at.
struct TwilioAccount: Sendable {
    var applicationId: String
    var accountSid: String
    var serviceSid: String
    var baseURL: String
}
