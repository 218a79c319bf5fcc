import Foundation
import TacitCore
import TacitServer

/// When the face lets a pending request be cancelled. Vonage documents: "Cancellation is
/// only possible 30 seconds after the start of the verification request and before the
/// second event (either TTS or SMS) has taken place." The face holds the same window, so
/// an app built against Tacit meets no refusal on Vonage it never saw in development.
/// Each channel of the workflow is one event, so the window closes once the workflow has
/// moved past its first channel.
enum VonageCancelWindow {
    static let opensAfter: TimeInterval = 30

    /// Whether `verification` may be cancelled at `now`. One that is no longer pending is
    /// left to the engine, which answers as for any finished request.
    static func allows(_ verification: Verification, at now: Date) -> Bool {
        guard verification.status == .pending else { return true }
        return now.timeIntervalSince(verification.createdAt) >= opensAfter && (verification.currentStep ?? 0) == 0
    }
}
