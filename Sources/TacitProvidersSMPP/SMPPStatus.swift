import Foundation
import TacitCore

/// What a `submit_sm_resp`'s `command_status` means for the step (SMPP 3.4 §5.1.3). Only a
/// problem with the destination itself is permanent: no other provider would do better.
/// Throttling, a full queue, the SMSC's own faults and the account's settings may pass
/// elsewhere, so they are transient and the router moves on.
enum SMPPStatus {
    struct Known {
        var name: String
        var permanent: Bool
        var reason: String
        var words: String
    }

    static let all: [UInt32: Known] = [
        0x08: Known(name: "ESME_RSYSERR", permanent: false, reason: "provider_error",
                    words: "the SMSC had a system error"),
        0x0A: Known(name: "ESME_RINVSRCADR", permanent: false, reason: "provider_account",
                    words: "the SMSC refused the source address"),
        0x0B: Known(name: "ESME_RINVDSTADR", permanent: true, reason: "invalid_number",
                    words: "the SMSC found the destination address invalid"),
        0x14: Known(name: "ESME_RMSGQFUL", permanent: false, reason: "provider_throttled",
                    words: "the SMSC's message queue is full"),
        0x45: Known(name: "ESME_RSUBMITFAIL", permanent: false, reason: "provider_error",
                    words: "the SMSC could not take the message"),
        0x50: Known(name: "ESME_RINVDSTTON", permanent: true, reason: "invalid_number",
                    words: "the SMSC refused the destination's type of number"),
        0x51: Known(name: "ESME_RINVDSTNPI", permanent: true, reason: "invalid_number",
                    words: "the SMSC refused the destination's numbering plan"),
        0x58: Known(name: "ESME_RTHROTTLED", permanent: false, reason: "provider_throttled",
                    words: "the SMSC throttled the sending rate"),
        0x64: Known(name: "ESME_RX_T_APPN", permanent: false, reason: "provider_error",
                    words: "the SMSC reported a temporary error"),
        0x65: Known(name: "ESME_RX_P_APPN", permanent: true, reason: "destination_not_permitted",
                    words: "the SMSC refused the destination for good"),
        0x66: Known(name: "ESME_RX_R_APPN", permanent: true, reason: "destination_not_permitted",
                    words: "the SMSC rejected the message for the destination"),
    ]

    /// The attempt a refused `submit_sm` makes; an unknown status is transient.
    static func attempt(_ status: UInt32) -> DeliveryAttempt {
        let code = String(status)
        guard let known = all[status] else {
            return DeliveryAttempt(provider: SMPPProvider.name, refusal: .transient, reason: "provider_error",
                                   errorCode: code, detail: "the SMSC refused the message with an unknown status")
        }
        return DeliveryAttempt(provider: SMPPProvider.name, refusal: known.permanent ? .permanent : .transient,
                               reason: known.reason, errorCode: code, detail: "\(known.words) (\(known.name))")
    }

    /// `0x0000000E` and the like, for the log of a refused bind.
    static func hex(_ status: UInt32) -> String {
        let digits = String(status, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
