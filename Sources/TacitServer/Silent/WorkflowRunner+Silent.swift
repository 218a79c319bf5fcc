import Foundation
import TacitCore

extension WorkflowRunner {
    /// Begins, before the create's insert, every silent check its machine asked for, so
    /// each answer (a check URL, or a failure that moves on to the next step) commits
    /// with the verification in one transaction. That is a property of the create, not
    /// of a step: whichever step is silent. Returns the check URL when one was issued; a check
    /// a provider issued adds its price (or none) to `notes`, kept on the verification as a send's.
    func beginSilentChecks(_ turn: inout Turn, transcript: inout Transcript,
                           notes: inout [SendNote]) async throws(WorkflowRefusal) -> String? {
        var checkURL: String?
        var looked = 0
        while let found = turn.effects[looked...].firstIndex(where: \.isSilentBegin) {
            looked = found + 1
            guard case .beginSilentCheck(let step, let expiresAt) = turn.effects[found] else { continue }
            let v = turn.verification
            // A step already ended in this turn (a test number's silent step) asks no provider.
            guard v.currentStep == step else { continue }
            let request = SilentCheckRequest(verificationId: v.id, step: step, phoneNumber: v.phoneNumber,
                                             expiresAt: expiresAt, simSwapMaxAgeHours: v.simSwap?.maxAgeHours)
            // Neither input below is ever refused; were one, the create would fail with the refusal.
            switch await silent.begin(request) {
            case .issued(let url, let events):
                transcript.record(events, after: turn)
                checkURL = url
            case .issuedAtProvider(let challenge, let events):
                transcript.record(events, after: turn)
                try turn.handle(.silentCheckIssued(challenge.reference(step: step)))
                notes.append(challenge.note(step: step))
                checkURL = challenge.checkURL
            case .failed(let failure, let events):
                transcript.record(events, after: turn)
                try turn.handle(.silentFailed(step: step, failure: failure))
            }
        }
        return checkURL
    }

    /// Begins a silent check for a step reached after the verification was stored (a
    /// failover onto a silent step), once that transition committed. Its answer is
    /// applied by a second transition, as a code's delivery result is; an answer for a
    /// step no longer active records nothing.
    func beginSilentCheck(_ verification: Verification, step: Int, expiresAt: Date) async -> Outcome<Void>? {
        let request = SilentCheckRequest(verificationId: verification.id, step: step,
                                         phoneNumber: verification.phoneNumber, expiresAt: expiresAt,
                                         simSwapMaxAgeHours: verification.simSwap?.maxAgeHours)
        let answer = await silent.begin(request)
        // A check the provider issued is paid for even when the step moved on meanwhile: its price is kept.
        var notes: [SendNote] = []
        if case .issuedAtProvider(let challenge, _) = answer { notes.append(challenge.note(step: step)) }
        // nil when the store can't take the answer now; neither input below is ever refused.
        let outcome = try? await recordingTransition(verification.id, notes: notes) { turn -> (Bool, [EventDraft]) in
            guard turn.verification.isSilentStepActive(step) else { return (false, []) }
            switch answer {
            case .issued(_, let events): return (true, events)
            case .issuedAtProvider(let challenge, let events):
                try turn.handle(.silentCheckIssued(challenge.reference(step: step)))
                return (true, events)
            case .failed(let failure, let events):
                try turn.handle(.silentFailed(step: step, failure: failure))
                return (false, events)
            }
        }
        guard let outcome else { return nil }
        var checkURL: String?
        if outcome.result, case .issued(let url, _) = answer { checkURL = url }
        if outcome.result, case .issuedAtProvider(let challenge, _) = answer { checkURL = challenge.checkURL }
        return Outcome(result: (), verification: outcome.verification, checkURL: outcome.checkURL ?? checkURL)
    }
}

extension SilentChallenge {
    func reference(step: Int) -> SilentCheckReference {
        SilentCheckReference(step: step, provider: provider, reference: reference)
    }

    /// The check as a send of its step, with the price the provider reported; one without is
    /// priced from the table when kept (docs/api.md#insights). It counts no message sent.
    func note(step: Int) -> SendNote {
        var send = AcceptedSend(step: step, channel: .silentAuth, provider: provider)
        if let price, let currency { (send.price, send.currency, send.priceSource) = (price, currency, .receipt) }
        return .accepted(send)
    }
}

extension WorkflowEffect {
    var isSilentBegin: Bool {
        if case .beginSilentCheck = self { return true }
        return false
    }
}

extension Verification {
    /// True while `step` is the active silent-auth step of a pending verification.
    func isSilentStepActive(_ step: Int) -> Bool {
        state.activeStep?.index == step && workflow.indices.contains(step) && workflow[step].channel == .silentAuth
    }
}
