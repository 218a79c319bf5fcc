import Foundation
@testable import TacitKit

/// Small builders for verifications and events.
enum Fixtures {
    static let channels: [Channel] = [.silentAuth, .sms, .voice]

    /// A pending verification with step `active` active (earlier steps failed), or
    /// a finished one with `status`.
    static func verification(
        _ id: String = "req-1", status: VerificationStatus = .pending, active: Int? = 0, channels: [Channel] = channels
    ) -> Verification {
        let steps = channels.indices.map { i -> Verification.Step in
            let stepStatus: StepStatus = i == active ? .active : (active.map { i < $0 } ?? false) ? .failed : .unused
            return Verification.Step(channel: channels[i], status: stepStatus)
        }
        let channel = active.map { channels[$0] }
        let checkURL = channel == .silentAuth ? URL(string: "http://127.0.0.1:1/check") : nil
        return Verification(requestId: id, status: status, channel: status == .pending ? channel : nil,
                            checkURL: checkURL, clientToken: "ct", workflow: steps)
    }

    static func event(_ seq: Int, _ label: String, _ id: String = "req-1") -> TimelineEvent {
        TimelineEvent(seq: seq, requestId: id, channel: String(label.split(separator: ":")[0]), label: label)
    }
}
