import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// What a face serves with: the engine every face and `/v1` share, and the application's
/// parts a face's routes and gate reach for.
public struct FaceContext: Sendable {
    /// Every change goes through it, so guards, the timeline, webhooks and the console see it.
    public let runner: WorkflowRunner
    /// Where applications and the faces' records live; nil for a store without them, where
    /// no face credential can be checked and every face call is refused.
    public let applications: ApplicationDirectory?
    public let phones: PhoneNumberParser
    /// Whether the virtual operator's numbers may be verified (`--dev`).
    public let allowVirtualRange: Bool
    /// The check_url hops every face's silent step goes through.
    public let silent: SilentFlow

    public var store: any VerificationStore { runner.store }
    public var silentKeys: SilentKeys { silent.keys }
    public var clock: any TacitClock { runner.clock }
    public var secrets: ServerSecrets { runner.secrets }
    /// Seals and opens the secrets a face keeps for applications.
    public var fields: SealedFields { secrets.fieldProtection }
}
