import Foundation

/// The silent steps whose device ends at the provider: the machine keeps which provider
/// issued the step's check, and takes the provider's answer about it.
extension WorkflowMachine {
    /// `.silentCheckIssued`: keeps `reference` for its step, while that step is the active
    /// silent one; a reference for any other step changes nothing.
    mutating func recordSilentCheck(_ reference: SilentCheckReference) {
        guard isActiveSilentStep(reference.step) else { return }
        verification.silentCheck = reference
    }

    /// The provider's check for the active step, if it issued one.
    public var activeSilentCheck: SilentCheckReference? {
        guard let check = verification.silentCheck, isActiveSilentStep(check.step) else { return nil }
        return check
    }

    /// `.providerMatched`: the step completes as a silent code would, through the same
    /// functions as `.codeIssued` and a matching `.codeSubmitted`, unless a changed SIM
    /// under a `block` policy fails the verification first.
    mutating func providerMatched(step: Int, hash: [UInt8], simChanged: Bool?) {
        guard isActiveSilentStep(step) else { return }
        if let simChanged {
            verification.risk.simSwapped = simChanged
            if let policy = verification.simSwap {
                emit(.simSwapChecked(swapped: simChanged, policy: policy))
                if simChanged && policy.action == .block {
                    end(step: step, status: .failed, reason: .simSwapped, label: .failed)
                    finish(.failed, reason: .simSwapped, channel: .silentAuth)
                    return
                }
            }
        }
        issueCode(step: step, hash: hash)
        _ = submit(matches: true)
    }

    private func isActiveSilentStep(_ step: Int) -> Bool {
        verification.state.activeStep?.index == step && verification.workflow.indices.contains(step)
            && verification.workflow[step].channel == .silentAuth
    }
}
