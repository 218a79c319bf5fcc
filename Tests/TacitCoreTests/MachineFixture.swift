import Foundation
import TacitCore

/// Builds verifications and drives machines for the tests.
struct MachineFixture {
    static let start = Date(timeIntervalSince1970: 1_796_000_000)

    var verification: Verification
    var now: Date

    init(_ channels: [Channel] = [.silentAuth, .sms, .voice], simSwap: SimSwapPolicy? = nil, timeout: Int = 60) {
        let options = VerificationOptions(workflow: channels, channelTimeout: timeout, simSwap: simSwap)
        verification = Verification(id: "vf_test", phoneNumber: "+99012345670", options: options, clientTokenHash: [1], createdAt: Self.start)
        now = Self.start
    }

    /// Applies an input at the current time and keeps the new state.
    @discardableResult
    mutating func apply(_ input: WorkflowInput) throws(WorkflowRefusal) -> [WorkflowAction] {
        var machine = WorkflowMachine(verification, now: now)
        let actions = try machine.handle(input)
        verification = machine.verification
        return actions
    }

    mutating func check(_ matches: Bool) -> CheckResult {
        var machine = WorkflowMachine(verification, now: now)
        let result = machine.check(matches: matches)
        verification = machine.verification
        return result
    }

    mutating func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

    var statuses: [StepStatus] { verification.workflow.map(\.status) }
}

extension [WorkflowAction] {
    var labels: [String] { compactMap { if case .emit(let draft) = $0 { return draft.label } else { return nil } } }
    var webhooks: [WebhookEvent] { compactMap { if case .notifyWebhook(let event) = $0 { return event } else { return nil } } }
    var started: [Channel] { compactMap { if case .startChannel(_, let channel) = $0 { return channel } else { return nil } } }
}
