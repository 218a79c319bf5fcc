import Foundation
import TacitCore

extension WorkflowRunner {
    /// What carrying out actions left: the latest state of the verification (so callers
    /// need not read it again) and a check URL when a silent step was issued one.
    struct Performed: Sendable {
        var verification: Verification
        var checkURL: String?
    }

    /// Carries out actions after their transaction committed.
    func perform(_ actions: [WorkflowAction], for verification: Verification, codes: [Int: String]) async -> Performed {
        var performed = Performed(verification: verification)
        for action in actions {
            switch action {
            case .scheduleTimer(let at): timers.schedule(verification.id, at: at)
            case .cancelTimer: timers.cancel(verification.id)
            case .startChannel(_, .silentAuth):
                // Silent auth can only be the first step, and `create` starts it before the insert.
                break
            case .startChannel(let step, let channel):
                if let outcome = await sendCode(verification, step: step, channel: channel, code: codes[step]) {
                    performed.verification = outcome.verification
                    performed.checkURL = performed.checkURL ?? outcome.checkURL
                }
            case .notifyWebhook(let event): metrics.webhook(event)
            case .emit: break
            }
        }
        return performed
    }

    /// Hands the message with the code issued in the committed transaction to the sender.
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
