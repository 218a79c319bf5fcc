import Foundation
import TacitCore
import TacitCrypto

/// Raised inside a code check's transaction when the active step is a silent check that
/// ends at its provider: the check is rolled back, and the provider is asked instead.
struct CompletesAtProvider: Error {
    let check: SilentCheckReference
}

/// How a check the provider judged ended.
enum ProviderCheckResult: Sendable, Equatable {
    case completed
    /// The step failed with this reason and the workflow moved on.
    case failed(SilentFailure)
    /// The verification finished because the SIM changed and the policy blocks it.
    case blocked
    /// The step had already moved on when the provider's answer came.
    case inactive
    /// The provider refused the code: counted as a wrong code (`wrongCode` with the attempts
    /// left, or `tooManyAttempts`), and the step, whose one attempt is spent, moved on.
    case wrongCode(CheckResult)
}

extension WorkflowRunner {
    /// Completes a silent step whose device ended at the provider, by asking the provider
    /// about the reference Tacit recorded when the step began: `deviceCode` is what the
    /// device got at the provider's end (none where the app's backend checks without one), passed on untouched. The
    /// answer is applied only while that same check is still the active step's.
    func completeAtProvider(_ id: String, check: SilentCheckReference, deviceCode: String?,
                            provider: (any SilentProviderCheck)?,
                            events: [EventDraft]) async throws -> ProviderCheckResult? {
        guard let stored = try await store.verification(id: id) else { return nil }
        let submission = SilentSubmission(reference: check.reference, deviceCode: deviceCode,
                                          phoneNumber: stored.phoneNumber,
                                          simSwapMaxAgeHours: stored.simSwap?.maxAgeHours)
        let verdict = await provider?.verdict(for: submission)
        let hash = try secrets.codeHash(Token.generate(prefix: "sa_", bytes: 16), verificationId: id, step: check.step)
        let hop = SilentHopNotes.verdict(check.provider, verdict)
        return try await recordingTransition(id) { turn -> (ProviderCheckResult, [EventDraft]) in
            guard turn.activeSilentCheck == check else { return (.inactive, []) }
            if verdict?.result == .wrongCode {
                // A wrong code counts as one, as on any step; it says nothing of the SIM.
                let counted = try turn.handle(.codeSubmitted(matches: false)).check ?? .wrongCode(attemptsRemaining: 0)
                if turn.verification.status == .pending {
                    try turn.handle(.silentFailed(step: check.step, failure: .wrongCode))
                }
                return (.wrongCode(counted), events + [hop])
            }
            guard let verdict, verdict.result == .match else {
                let failure = verdict.map { Self.failure(for: $0.result) } ?? .unavailable
                try turn.handle(.silentFailed(step: check.step, failure: failure))
                return (.failed(failure), events + [hop])
            }
            try turn.handle(.providerMatched(step: check.step, hash: hash, simChanged: verdict.simChanged))
            return (turn.verification.status == .completed ? .completed : .blocked, events + [hop])
        }?.result
    }

    private static func failure(for result: SilentVerdict.Result) -> SilentFailure {
        switch result {
        case .match, .noMatch: .rejected
        case .notCellular: .deviceNotCellular
        case .replayed: .replayed
        case .expired: .expired
        case .wrongCode: .wrongCode
        }
    }
}
