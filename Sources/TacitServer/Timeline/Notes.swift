import Foundation
import TacitCore

/// The engine's timeline events in words: each typed event the machine decides on
/// becomes a draft whose note teaches what happened and why. The machine decides the
/// label and channel; everything else a reader sees is worded here.
enum Notes {
    /// `verification`, when given, words what only it knows: the locale and the SMS's
    /// encoding and parts on `sms:code_sent`, measured on `composed`, the message sent, when given.
    static func draft(_ event: WorkflowEvent, of verification: Verification? = nil,
                      composed: ComposedMessage? = nil) -> EventDraft {
        if case .codeSent(let channel, let length, let number) = event, let verification {
            return codeSent(channel, length: length, to: number, verification: verification, composed: composed)
        }
        return switch event {
        case .started(let workflow, let timeout, let length, let number):
            started(workflow: workflow, timeout: timeout, codeLength: length, number: number)
        case .simSwapChecked(let swapped, let policy): simSwap(swapped: swapped, policy: policy)
        case .stepStarted(let channel, let index, let timeout): stepStarted(channel, index: index, timeout: timeout)
        case .codeSent(let channel, let length, let number): codeSent(channel, length: length, to: number)
        case .codeAccepted(let channel): codeAccepted(channel)
        case .codeRejected(let channel, let remaining): codeRejected(channel, remaining: remaining)
        case .timerFired(let channel, let seconds): timerFired(channel, seconds: seconds)
        case .stepEnded(let channel, let label, let reason, let isLast):
            stepEnded(channel, label: label, reason: reason, isLast: isLast)
        case .stepCompleted(let channel): stepCompleted(channel)
        case .finished(let outcome, let reason): finished(outcome, reason: reason)
        case .summary(let status, let workflow): summary(status, workflow: workflow)
        }
    }

    /// `contact` is the verification's number, or the address of one for an address alone.
    static func started(workflow: [Channel], timeout: Int, codeLength: Int, number contact: String) -> EventDraft {
        let steps = workflow.map(\.spokenName).joined(separator: ", then ")
        let isAddress = contact.utf8.contains(UInt8(ascii: "@"))
        var draft = EventDraft(
            WorkflowEvent.started(workflow: workflow, channelTimeout: timeout, codeLength: codeLength,
                                  phoneNumber: contact).label,
            note: """
                A verification started for \(isAddress ? EmailAddress.redacted(contact) : Redactor.phone(contact)). \
                Tacit will try \(steps), moving on whenever a step can't finish within \(timeout) seconds.
                """,
            data: ["workflow": .list(workflow.map { .text($0.rawValue) }),
                   "channel_timeout": .int(timeout), "code_length": .int(codeLength)]
        )
        if isAddress {
            draft.data["email"] = .text(EmailAddress.redacted(contact))
        } else {
            draft.data["phone_number"] = .phone(contact)
        }
        return draft
    }

    static func simSwap(swapped: Bool, policy: SimSwapPolicy) -> EventDraft {
        let note = swapped
            ? "The mobile operator reports the SIM card changed within the last \(policy.maxAgeHours) hours,"
              + " a common sign of account takeover. Policy:"
              + " \(policy.action == .block ? "block the verification" : "flag it and continue")."
            : "The mobile operator reports no SIM change within the last \(policy.maxAgeHours) hours."
        return EventDraft(WorkflowEvent.simSwapChecked(swapped: swapped, policy: policy).label, source: .operator,
                          outcome: swapped ? .failure : .success, note: note,
                          data: ["sim_swapped": .bool(swapped), "max_age_hours": .int(policy.maxAgeHours),
                                 "action": .text(policy.action.rawValue)])
    }

    static func stepStarted(_ channel: Channel, index: Int, timeout: Int) -> EventDraft {
        let what: String
        switch channel {
        case .silentAuth: what = "Silent authentication started: the device will open a link over its mobile data"
                                 + " connection, and the mobile network will confirm that the SIM inside it belongs to"
                                 + " this number. Nothing to type."
        case .sms: what = "Trying SMS: a one-time code goes to the phone by text message, and the person types it in."
        case .voice: what = "Trying a voice call: the phone rings and a voice reads out a one-time code."
        case .whatsapp: what = "Trying WhatsApp: a one-time code goes to the number's WhatsApp account."
        case .email: what = "Trying email: a one-time code goes to the address the step names."
        }
        return EventDraft(WorkflowEvent.stepStarted(channel, index: index, timeout: timeout).label, channel: channel,
                          note: what + " This step has \(timeout) seconds.",
                          data: ["step": .int(index + 1), "timeout_seconds": .int(timeout)])
    }

    /// With the message's locale, the application's template when one was used, and for an
    /// SMS its alphabet and how many parts it takes.
    static func codeSent(_ channel: Channel, length: Int, to number: String, verification: Verification,
                         composed: ComposedMessage? = nil) -> EventDraft {
        var draft = channel == .email
            ? emailSent(length: length, to: verification.emailAddress ?? "")
            : codeSent(channel, length: length, to: number)
        draft.data["locale"] = .text(composed?.language ?? MessageText.language(for: verification.locale))
        if let template = composed?.template { draft.data["template"] = .text(template) }
        if channel == .sms {
            let encoding = composed?.encoding ?? MessageText.smsEncoding(brand: verification.brand, codeLength: length,
                                                                         locale: verification.locale)
            draft.data["encoding"] = .text(encoding.alphabet.rawValue)
            draft.data["segments"] = .int(encoding.segments)
        }
        return draft
    }

    static func codeSent(_ channel: Channel, length: Int, to number: String) -> EventDraft {
        EventDraft(WorkflowEvent.codeSent(channel, length: length, phoneNumber: number).label, channel: channel,
                   outcome: .success,
                   note: """
                       A \(length)-digit code was sent by \(channel.spokenName) to \(Redactor.phone(number)). \
                       Only a keyed hash of it is stored.
                       """,
                   data: ["phone_number": .phone(number), "code_length": .int(length)])
    }

    /// An email's code: the address redacted as a number is (`p•••••@example.com`).
    static func emailSent(length: Int, to address: String) -> EventDraft {
        let shown = EmailAddress.redacted(address)
        return EventDraft(WorkflowEvent.codeSent(.email, length: length, phoneNumber: "").label, channel: .email,
                          outcome: .success,
                          note: "A \(length)-digit code was sent by email to \(shown). "
                              + "Only a keyed hash of it is stored.",
                          data: ["email": .text(shown), "code_length": .int(length)])
    }

    static func codeAccepted(_ channel: Channel) -> EventDraft {
        EventDraft(WorkflowEvent.codeAccepted(channel).label, channel: channel, outcome: .success,
                   note: channel == .silentAuth
                       ? "The code the mobile network handed to the device came back and matches:"
                         + " the SIM holds this number."
                       : "The code that was typed matches the one sent by \(channel.spokenName)."
                         + " It can't be used again.")
    }

    static func codeRejected(_ channel: Channel, remaining: Int) -> EventDraft {
        EventDraft(WorkflowEvent.codeRejected(channel, attemptsRemaining: remaining).label, channel: channel,
                   outcome: .failure,
                   note: remaining > 0
                       ? "The code does not match. \(remaining) attempt\(remaining == 1 ? "" : "s") left before the"
                         + " verification fails; sending a new code does not reset this."
                       : "The code does not match, and that was the last attempt allowed.",
                   data: ["attempts_remaining": .int(remaining)])
    }

    static func timerFired(_ channel: Channel, seconds: Int) -> EventDraft {
        EventDraft(WorkflowEvent.timerFired(channel, seconds: seconds).label, channel: channel,
                   note: "The step's \(seconds)-second timer fired on the server's own clock,"
                         + " and the \(channel.spokenName) step had not completed by then.",
                   data: ["timeout_seconds": .int(seconds)])
    }

    static func stepEnded(_ channel: Channel, label: StepEndLabel, reason: EndReason, isLast: Bool) -> EventDraft {
        let why = Self.reasons[reason] ?? "The step ended (\(reason.rawValue))."
        let then = isLast || label == .cancelled ? "" : " Moving on to the next step."
        return EventDraft(WorkflowEvent.stepEnded(channel, label: label, reason: reason, isLast: isLast).label,
                          channel: channel, outcome: .failure, note: why + then,
                          data: ["reason": .text(reason.rawValue)])
    }

    static func stepCompleted(_ channel: Channel) -> EventDraft {
        EventDraft(WorkflowEvent.stepCompleted(channel).label, channel: channel, outcome: .success,
                   note: channel == .silentAuth
                       ? "Silent authentication completed: the mobile network confirmed the number without the person"
                         + " typing anything."
                       : "The \(channel.spokenName) step completed: the person proved they receive messages for this"
                         + " number.")
    }

    static func finished(_ outcome: VerificationOutcome, reason: EndReason?) -> EventDraft {
        let note: String
        switch outcome {
        case .completed: note = "The verification completed: this person holds the phone number."
        case .failed: note = "The verification failed" + (reason.flatMap { Self.reasons[$0] }.map { ": " + $0 } ?? ".")
        case .expired: note = "The verification expired: no step could be completed in time."
        case .cancelled: note = "The verification was cancelled by the caller."
        }
        return EventDraft(WorkflowEvent.finished(outcome, reason: reason).label,
                          outcome: outcome == .completed ? .success : .failure, note: note,
                          data: reason.map { ["reason": .text($0.rawValue)] } ?? [:])
    }

    static func summary(_ status: VerificationStatus, workflow: [WorkflowStep]) -> EventDraft {
        let list = workflow.map { "\($0.channel.rawValue): \($0.status.rawValue)" }.joined(separator: ", ")
        return EventDraft(WorkflowEvent.summary(status, workflow: workflow).label,
                          outcome: status == .completed ? .success : .failure,
                          note: "Summary: \(list). Final status: \(status.rawValue).",
                          data: ["status": .text(status.rawValue),
                                 "workflow": .list(workflow.map {
                                     .object(["channel": .text($0.channel.rawValue),
                                              "status": .text($0.status.rawValue)])
                                 })])
    }
}
