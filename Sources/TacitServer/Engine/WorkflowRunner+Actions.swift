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
    /// then applies its answer in a second transition.
    private func sendCode(_ verification: Verification, step: Int, channel: Channel, code: String?) async -> Outcome<Void>? {
        guard let code else { return nil }
        let message = OutboundMessage(channel: channel, to: verification.phoneNumber,
                                      body: MessageText.body(channel: channel, brand: verification.brand, code: code),
                                      verificationId: verification.id)
        let result = await sender.send(message)
        metrics.sent(channel, accepted: result == .accepted)
        let input: WorkflowInput
        switch result {
        case .accepted: input = .codeDelivery(step: step, delivered: true, reason: nil)
        case .refused(let reason): input = .codeDelivery(step: step, delivered: false, reason: reason)
        }
        return try? await transition(verification.id) { try $0.handle(input) }
    }
}
