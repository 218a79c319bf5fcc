import Foundation
import TacitCore

extension WorkflowRunner {
    /// What carrying out effects left: the latest state of the verification (so callers
    /// need not read it again) and a check URL when a silent step was issued one.
    struct Performed: Sendable {
        var verification: Verification
        var checkURL: String?
    }

    /// Carries out effects after their transaction committed. Codes were issued, their
    /// sends queued and events recorded inside it; what is left reaches timers and
    /// providers. A queued send is the worker's: this waits for its answer until
    /// `sendDeadline`, so the caller answers with it when it comes in time.
    func perform(_ effects: [WorkflowEffect], for verification: Verification, sendDeadline: Date) async -> Performed {
        var performed = Performed(verification: verification)
        for effect in effects {
            var outcome: Performed?
            switch effect {
            case .scheduleTimer(let at): timers.schedule(verification.id, at: at)
            case .cancelTimer: timers.cancel(verification.id)
            case .sendMessage(let step, _):
                // A test number's code is never sent (docs/fraud.md#test-numbers): no send to wait for.
                if verification.sealedTestCode == nil {
                    outcome = await awaitSend(of: verification.id, step: step, until: sendDeadline)
                }
            case .beginSilentCheck(let step, let expiresAt):
                // A silent step the geo permissions refused was skipped in the same turn: no provider is asked.
                guard GeoRules.unreachable(.silentAuth, in: verification) == nil else { break }
                outcome = await beginSilentCheck(verification, step: step, expiresAt: expiresAt)
                    .map { Performed(verification: $0.verification, checkURL: $0.checkURL) }
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
}
