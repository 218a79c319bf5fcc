import Foundation

/// The engine's timeline events, each with a note that teaches what happened and why.
enum Notes {
    static func started(_ v: Verification) -> EventDraft {
        let steps = v.workflow.map(\.channel.spokenName).joined(separator: ", then ")
        return EventDraft(
            "verification:started",
            note: "A verification started for \(Redactor.phone(v.phoneNumber)). Tacit will try \(steps), moving on whenever a step can't finish within \(v.channelTimeout) seconds.",
            data: ["phone_number": .phone(v.phoneNumber), "workflow": .list(v.workflow.map { .text($0.channel.rawValue) }),
                   "channel_timeout": .int(v.channelTimeout), "code_length": .int(v.codeLength)]
        )
    }

    static func simSwap(swapped: Bool, policy: SimSwapPolicy) -> EventDraft {
        let note = swapped
            ? "The mobile operator reports the SIM card changed within the last \(policy.maxAgeHours) hours, a common sign of account takeover. Policy: \(policy.action == .block ? "block the verification" : "flag it and continue")."
            : "The mobile operator reports no SIM change within the last \(policy.maxAgeHours) hours."
        return EventDraft("risk:sim_swap_checked", source: .operator, outcome: swapped ? .failure : .success, note: note,
                          data: ["sim_swapped": .bool(swapped), "max_age_hours": .int(policy.maxAgeHours), "action": .text(policy.action.rawValue)])
    }

    static func stepStarted(_ channel: Channel, index: Int, timeout: Int) -> EventDraft {
        let what: String
        switch channel {
        case .silentAuth: what = "Silent authentication started: the device will open a link over its mobile data connection, and the mobile network will confirm that the SIM inside it belongs to this number. Nothing to type."
        case .sms: what = "Trying SMS: a one-time code goes to the phone by text message, and the person types it in."
        case .voice: what = "Trying a voice call: the phone rings and a voice reads out a one-time code."
        case .whatsapp: what = "Trying WhatsApp: a one-time code goes to the number's WhatsApp account."
        }
        return EventDraft("\(channel.rawValue):started", channel: channel,
                          note: what + " This step has \(timeout) seconds.",
                          data: ["step": .int(index + 1), "timeout_seconds": .int(timeout)])
    }

    static func codeSent(_ channel: Channel, length: Int, to number: String) -> EventDraft {
        EventDraft("\(channel.rawValue):code_sent", channel: channel, outcome: .success,
                   note: "A \(length)-digit code was sent by \(channel.spokenName) to \(Redactor.phone(number)). Only a keyed hash of it is stored.",
                   data: ["phone_number": .phone(number), "code_length": .int(length)])
    }

    static func codeAccepted(_ channel: Channel) -> EventDraft {
        EventDraft("\(channel.rawValue):code_checked", channel: channel, outcome: .success,
                   note: channel == .silentAuth
                       ? "The code the mobile network handed to the device came back and matches: the SIM holds this number."
                       : "The code that was typed matches the one sent by \(channel.spokenName). It can't be used again.")
    }

    static func codeRejected(_ channel: Channel, remaining: Int) -> EventDraft {
        EventDraft("\(channel.rawValue):code_checked", channel: channel, outcome: .failure,
                   note: remaining > 0
                       ? "The code does not match. \(remaining) attempt\(remaining == 1 ? "" : "s") left before the verification fails; sending a new code does not reset this."
                       : "The code does not match, and that was the last attempt allowed.",
                   data: ["attempts_remaining": .int(remaining)])
    }

    static func timerFired(_ channel: Channel, seconds: Int) -> EventDraft {
        EventDraft("timer:fired", channel: channel,
                   note: "The step's \(seconds)-second timer fired on the server's own clock, and the \(channel.spokenName) step had not completed by then.",
                   data: ["timeout_seconds": .int(seconds)])
    }

    static func stepEnded(_ channel: Channel, label: String, reason: String?, isLast: Bool) -> EventDraft {
        let why = Self.reasons[reason ?? ""] ?? "The step ended (\(reason ?? "no reason given"))."
        let then = isLast || label == "cancelled" ? "" : " Moving on to the next step."
        return EventDraft("\(channel.rawValue):\(label)", channel: channel, outcome: .failure, note: why + then,
                          data: ["reason": .text(reason ?? "")])
    }

    static func stepCompleted(_ channel: Channel) -> EventDraft {
        EventDraft("\(channel.rawValue):completed", channel: channel, outcome: .success,
                   note: channel == .silentAuth
                       ? "Silent authentication completed: the mobile network confirmed the number without the person typing anything."
                       : "The \(channel.spokenName) step completed: the person proved they receive messages for this number.")
    }

    static func finished(_ status: VerificationStatus, reason: String?) -> EventDraft {
        let note: String
        switch status {
        case .completed: note = "The verification completed: this person holds the phone number."
        case .failed: note = "The verification failed" + (reason.flatMap { Self.reasons[$0] }.map { ": " + $0 } ?? ".")
        case .expired: note = "The verification expired: no step could be completed in time."
        case .cancelled: note = "The verification was cancelled by the caller."
        case .pending: note = "The verification is still pending."
        }
        return EventDraft("verification:\(status.rawValue)", outcome: status == .completed ? .success : .failure, note: note,
                          data: reason.map { ["reason": .text($0)] } ?? [:])
    }

    static func summary(_ v: Verification) -> EventDraft {
        let list = v.workflow.map { "\($0.channel.rawValue): \($0.status.rawValue)" }.joined(separator: ", ")
        return EventDraft("verification:summary", outcome: v.status == .completed ? .success : .failure,
                          note: "Summary: \(list). Final status: \(v.status.rawValue).",
                          data: ["status": .text(v.status.rawValue),
                                 "workflow": .list(v.workflow.map { .object(["channel": .text($0.channel.rawValue), "status": .text($0.status.rawValue)]) })])
    }

    static let reasons: [String: String] = [
        "timeout": "Nothing completed this step within its time limit.",
        "rejected": "The mobile network says the SIM in the device does not belong to this number.",
        "carrier_error": "The mobile operator answered with an error, so it could not confirm the number.",
        "no_coverage": "The number's mobile operator does not support silent authentication, so this step is skipped.",
        "device_not_cellular": "The device opened the check link over Wi-Fi or another non-cellular network, so the mobile network could not see which SIM it uses.",
        "check_url_replayed": "The check link was opened a second time; each link works once, so this is treated as a possible replay.",
        "check_url_expired": "The check link was opened after it expired.",
        "integrity_error": "The device received an answer for a different verification and refused to use it.",
        "unavailable": "Silent authentication is not available on this server.",
        "skipped": "The caller asked to skip to the next step.",
        "cancelled": "The caller cancelled the verification.",
        "too_many_attempts": "too many wrong codes were entered.",
        "sim_swapped": "the SIM card changed recently and the policy says to block.",
        "provider_error": "The message provider could not deliver the code.",
        "rate_limited": "Too many codes were sent to this number recently, so Tacit did not send another (no provider was called).",
        "destination_denied": "This server does not send codes to numbers in this range, so nothing was sent (no provider was called).",
    ]
}
