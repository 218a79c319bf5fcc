import Foundation
import TacitCore
import TacitStore

extension WorkflowRunner {
    /// Like `transition`, but `body` also returns the events to record with its change,
    /// so a late or unknown hop can leave a finished verification's timeline untouched.
    /// nil when the id is unknown.
    func silentTransition<T: Sendable>(
        _ id: String, _ body: @escaping @Sendable (inout WorkflowMachine) throws -> (T, [EventDraft])
    ) async throws -> Outcome<T>? {
        let now = clock.now()
        let update = try await store.update(id: id, at: now) { verification in
            var machine = WorkflowMachine(verification, now: now)
            let (result, events) = try body(&machine)
            verification = machine.verification
            return StoreChange(SilentApplied(result: result, actions: machine.actions),
                               events: events + machine.actions.compactMap(\.emitted))
        }
        guard let update else { return nil }
        hub.publish(update.events)
        let url = await perform(update.result.actions, for: update.verification)
        return Outcome(result: update.result.result, verification: update.verification, checkURL: url)
    }
}

private struct SilentApplied<T: Sendable>: Sendable {
    var result: T
    var actions: [WorkflowAction]
}

extension Verification {
    /// True while `step` is the active silent-auth step of a pending verification.
    func isSilentStepActive(_ step: Int) -> Bool {
        status == .pending && currentStep == step && workflow.indices.contains(step)
            && workflow[step].channel == .silentAuth && workflow[step].status == .active
    }
}
