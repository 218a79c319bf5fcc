import Foundation
import TacitCore

extension WorkflowRunner {
    /// What carrying out effects left: the latest state of the verification (so callers
    /// need not read it again) and a check URL when a silent step was issued one.
    struct Performed: Sendable {
        var verification: Verification
        var checkURL: String?
    }

    /// Carries out effects after their transaction committed. Codes were issued and
    /// events recorded inside it; what is left reaches timers, senders and providers.
    func perform(_ effects: [WorkflowEffect], for verification: Verification, codes: [Int: String]) async -> Performed {
        var performed = Performed(verification: verification)
        for effect in effects {
            var outcome: Outcome<Void>?
            switch effect {
            case .scheduleTimer(let at): timers.schedule(verification.id, at: at)
            case .cancelTimer: timers.cancel(verification.id)
            case .sendMessage(let step, let channel):
                outcome = await sendCode(verification, step: step, channel: channel, code: codes[step])
            case .beginSilentCheck(let step, let expiresAt):
                outcome = await beginSilentCheck(verification, step: step, expiresAt: expiresAt)
            case .notifyWebhook(let event, _): metrics.webhook(event)
            case .issueCode, .emit: break
            }
            if let outcome {
                performed.verification = outcome.verification
                performed.checkURL = performed.checkURL ?? outcome.checkURL
            }
        }
        return performed
    }

    /// Hands the message with the code issued in the committed transaction to the sender,
    /// then applies its answer in a second transition, with a timeline event for each
    /// provider asked. Hops that come back after the verification ended are still
    /// recorded, and the summary is written again after them.
    private func sendCode(_ verification: Verification, step: Int, channel: Channel, code: String?) async -> Outcome<Void>? {
        guard let code else { return nil }
        let body = MessageText.body(channel: channel, brand: verification.brand, code: code, locale: verification.locale)
        let message = OutboundMessage(channel: channel, to: verification.phoneNumber, body: body, verificationId: verification.id,
                                      step: step, language: MessageText.language(for: verification.locale), locale: verification.locale,
                                      code: code, brand: verification.brand)
        let result = await sender.send(message)
        metrics.sent(channel, accepted: result.isAccepted)
        let input = WorkflowInput.codeDelivery(step: step, delivered: result.isAccepted, reason: result.reason)
        let hops = ProviderHopNotes.drafts(result.attempts, channel: channel)
        return try? await transition(verification.id, events: hops) { machine in
            if !hops.isEmpty, machine.verification.status != .pending { return machine.summarizeAgainIfFinished() }
            try machine.handle(input)
        }
    }
}
