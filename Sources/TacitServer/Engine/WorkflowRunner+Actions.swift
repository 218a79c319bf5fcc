import Foundation
import TacitCore

extension WorkflowRunner {
    /// Carries out actions after their transaction committed. Returns a check URL
    /// when a silent step was issued one.
    func perform(_ actions: [WorkflowAction], for verification: Verification, codes: [Int: String]) async -> String? {
        var checkURL: String?
        for action in actions {
            switch action {
            case .scheduleTimer(let at): await timers.schedule(verification.id, at: at)
            case .cancelTimer: await timers.cancel(verification.id)
            case .startChannel(let step, let channel):
                let url = channel == .silentAuth
                    ? await startSilent(verification, step: step)
                    : await sendCode(verification, step: step, channel: channel, code: codes[step])
                checkURL = checkURL ?? url
            case .notifyWebhook(let event): metrics.webhook(event)
            case .emit: break
            }
        }
        return checkURL
    }

    /// Hands the message with the code issued in the committed transaction to the sender.
    private func sendCode(_ verification: Verification, step: Int, channel: Channel, code: String?) async -> String? {
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
        _ = try? await transition(verification.id) { try $0.handle(input) }
        return nil
    }

    private func startSilent(_ verification: Verification, step: Int) async -> String? {
        let request = SilentCheckRequest(verificationId: verification.id, step: step, phoneNumber: verification.phoneNumber,
                                         expiresAt: verification.deadline ?? clock.now())
        switch await silent.begin(request) {
        case .issued(let url, let events):
            if !events.isEmpty { _ = try? await transition(verification.id, events: events) { _ in } }
            return url
        case .failed(let failure, let events):
            _ = try? await transition(verification.id, events: events) { try $0.handle(.silentFailed(step: step, failure: failure)) }
            return nil
        }
    }
}
