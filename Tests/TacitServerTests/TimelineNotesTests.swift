import Foundation
import Testing
import TacitCore
@testable import TacitServer

/// The machine's typed events, worded by the server: each draft (label, channel,
/// source, outcome, note and data) must stay what clients and fixtures already read.
@Suite("Timeline notes for the machine's events")
struct TimelineNotesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var event: WorkflowEvent
        var draft: EventDraft
        var testDescription: String { draft.label }
    }

    static let number = "+99012345670"
    static let cases: [Case] = [
        Case(event: .started(workflow: [.silentAuth, .sms], channelTimeout: 60, codeLength: 6, phoneNumber: number),
             draft: EventDraft("verification:started",
                               note: "A verification started for +99•••••5670. Tacit will try silent authentication, then SMS, moving on whenever a step can't finish within 60 seconds.",
                               data: ["phone_number": .phone(number), "workflow": .list([.text("silent_auth"), .text("sms")]),
                                      "channel_timeout": .int(60), "code_length": .int(6)])),
        Case(event: .simSwapChecked(swapped: true, policy: SimSwapPolicy(maxAgeHours: 240, action: .block)),
             draft: EventDraft("risk:sim_swap_checked", source: .operator, outcome: .failure,
                               note: "The mobile operator reports the SIM card changed within the last 240 hours, a common sign of account takeover. Policy: block the verification.",
                               data: ["sim_swapped": .bool(true), "max_age_hours": .int(240), "action": .text("block")])),
        Case(event: .stepStarted(.voice, index: 1, timeout: 60),
             draft: EventDraft("voice:started", channel: .voice,
                               note: "Trying a voice call: the phone rings and a voice reads out a one-time code. This step has 60 seconds.",
                               data: ["step": .int(2), "timeout_seconds": .int(60)])),
        Case(event: .codeSent(.sms, length: 6, phoneNumber: number),
             draft: EventDraft("sms:code_sent", channel: .sms, outcome: .success,
                               note: "A 6-digit code was sent by SMS to +99•••••5670. Only a keyed hash of it is stored.",
                               data: ["phone_number": .phone(number), "code_length": .int(6)])),
        Case(event: .codeRejected(.sms, attemptsRemaining: 1),
             draft: EventDraft("sms:code_checked", channel: .sms, outcome: .failure,
                               note: "The code does not match. 1 attempt left before the verification fails; sending a new code does not reset this.",
                               data: ["attempts_remaining": .int(1)])),
        Case(event: .codeRejected(.sms, attemptsRemaining: 0),
             draft: EventDraft("sms:code_checked", channel: .sms, outcome: .failure,
                               note: "The code does not match, and that was the last attempt allowed.", data: ["attempts_remaining": .int(0)])),
        Case(event: .timerFired(.sms, seconds: 60),
             draft: EventDraft("timer:fired", channel: .sms,
                               note: "The step's 60-second timer fired on the server's own clock, and the SMS step had not completed by then.",
                               data: ["timeout_seconds": .int(60)])),
        Case(event: .stepEnded(.sms, label: .timedOut, reason: .timeout, isLast: false),
             draft: EventDraft("sms:timed_out", channel: .sms, outcome: .failure,
                               note: "Nothing completed this step within its time limit. Moving on to the next step.", data: ["reason": .text("timeout")])),
        Case(event: .stepEnded(.voice, label: .cancelled, reason: .cancelled, isLast: false),
             draft: EventDraft("voice:cancelled", channel: .voice, outcome: .failure,
                               note: "The caller cancelled the verification.", data: ["reason": .text("cancelled")])),
        Case(event: .stepEnded(.voice, label: .failed, reason: .other("provider_busy"), isLast: true),
             draft: EventDraft("voice:failed", channel: .voice, outcome: .failure,
                               note: "The step ended (provider_busy).", data: ["reason": .text("provider_busy")])),
        Case(event: .stepCompleted(.silentAuth),
             draft: EventDraft("silent_auth:completed", channel: .silentAuth, outcome: .success,
                               note: "Silent authentication completed: the mobile network confirmed the number without the person typing anything.")),
        Case(event: .finished(.failed, reason: .tooManyAttempts),
             draft: EventDraft("verification:failed", outcome: .failure,
                               note: "The verification failed: too many wrong codes were entered.", data: ["reason": .text("too_many_attempts")])),
        Case(event: .finished(.failed, reason: .noProvider),
             draft: EventDraft("verification:failed", outcome: .failure, note: "The verification failed.", data: ["reason": .text("no_provider")])),
        Case(event: .finished(.completed, reason: nil),
             draft: EventDraft("verification:completed", outcome: .success, note: "The verification completed: this person holds the phone number.")),
        Case(event: .summary(.expired, workflow: [WorkflowStep(channel: .sms, status: .expired), WorkflowStep(channel: .voice, status: .expired)]),
             draft: EventDraft("verification:summary", outcome: .failure, note: "Summary: sms: expired, voice: expired. Final status: expired.",
                               data: ["status": .text("expired"), "workflow": .list([
                                   .object(["channel": .text("sms"), "status": .text("expired")]),
                                   .object(["channel": .text("voice"), "status": .text("expired")]),
                               ])])),
    ]

    @Test("each typed event becomes the draft it always was", arguments: cases)
    func worded(testCase: Case) {
        #expect(Notes.draft(testCase.event) == testCase.draft)
        #expect(testCase.event.label == testCase.draft.label && testCase.event.channel == testCase.draft.channel)
    }
}
