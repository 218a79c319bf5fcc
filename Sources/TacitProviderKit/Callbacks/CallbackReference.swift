import Foundation
import TacitCore

/// Where a provider callback points: the verification and the step whose message it reports.
/// Tacit hands it to providers in the form each allows (a `client_ref`, a `ref` query
/// parameter of the status callback URL), written `<request_id>:<step>`.
public struct CallbackReference: Equatable, Sendable {
    /// The verification's id.
    public var verificationId: String
    /// The step's index in the workflow, 0 to 9.
    public var step: Int

    /// The reference to step `step` of verification `verificationId`.
    public init(verificationId: String, step: Int) {
        self.verificationId = verificationId
        self.step = step
    }

    /// Reads `<request_id>:<step>`; nil for anything else (a step past 9, an id that is
    /// not token text or longer than 64 bytes).
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let step = Int(parts[1]), (0..<10).contains(step),
              (1...64).contains(parts[0].utf8.count),
              parts[0].isTokenText else { return nil }
        verificationId = String(parts[0])
        self.step = step
    }

    /// `<request_id>:<step>`.
    public var text: String { "\(verificationId):\(step)" }
}
