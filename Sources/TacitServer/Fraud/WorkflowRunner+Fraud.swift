import Foundation
import TacitCore
import TacitStore

/// The fraud rules a start meets in the runner, whichever API made it (docs/fraud.md): the
/// number's line type, read when the route parsed it, and the application's test numbers,
/// read from the store's copy kept for a second, so a create gains no store read; and the
/// start guard's bypass of the automatic rules, if any, as a `fraud:bypassed` event.
extension WorkflowRunner {
    /// Refuses a start its line can't take, marks a test number's start (its fixed code, sealed,
    /// then every code step takes it and nothing is sent), and puts both on the start's first event.
    func applyFraudRules(_ draft: inout Verification, noting events: inout [EventDraft]) async throws {
        if let refusal = LineTypeRules.workflowRefusal(draft) { throw refusal }
        if let lineType = draft.lineType, !events.isEmpty { events[0].data["line_type"] = .text(lineType) }
        if let bypass = FraudBypass.current, !events.isEmpty { events.append(bypass.event) }
        guard let test = try await activeTestNumber(for: draft) else { return }
        // A code sealed under a key the ring no longer has can't be used: the number is an ordinary one.
        guard let code = try? secrets.fieldProtection.open(test.sealedCode) else { return }
        draft.sealedTestCode = test.sealedCode
        draft.codeLength = code.count
        guard !events.isEmpty else { return }
        events[0].data["test_number"] = .bool(true)
        events[0].note += " It is one of the application's test numbers: no message is sent, and its fixed code checks."
    }

    /// The application's test number for the draft's number while it is active; never one on
    /// a line the rules refuse, so a test number can't open a premium range.
    private func activeTestNumber(for draft: Verification) async throws -> TestNumber? {
        guard let store = store as? any TestNumberStore else { return nil }
        if let lineType = draft.lineType, LineTypeRules.blocked.contains(where: { $0.rawValue == lineType }) {
            return nil
        }
        let now = clock.now()
        return try await store.testNumbers(application: draft.applicationId)
            .first { $0.phoneNumber == draft.phoneNumber && $0.isActive(at: now) }
    }

    /// Ends, as skipped, a silent first step of a test number's start: no provider is asked.
    func skipSilentTestStep(_ turn: inout Turn) throws(WorkflowRefusal) {
        guard turn.verification.sealedTestCode != nil, let step = turn.verification.currentStep,
              turn.verification.workflow[step].channel == .silentAuth else { return }
        try turn.handle(.unreachable(step: step, reason: .testNumber))
    }

    /// The code for a code step of `verification`: its test number's fixed code, else a new one.
    func code(for verification: Verification) throws -> (code: String, isTest: Bool) {
        guard let sealed = verification.sealedTestCode else {
            return (codes.generate(verification.codeLength), false)
        }
        return (String(decoding: try secrets.fieldProtection.open(sealed), as: UTF8.self), true)
    }
}
