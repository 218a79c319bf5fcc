import Foundation
import TacitCore

extension Verification {
    /// True while `step` is the active silent-auth step of a pending verification.
    func isSilentStepActive(_ step: Int) -> Bool {
        status == .pending && currentStep == step && workflow.indices.contains(step)
            && workflow[step].channel == .silentAuth && workflow[step].status == .active
    }
}
