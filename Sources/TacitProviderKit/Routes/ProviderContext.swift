import Foundation
import TacitCore

/// What the application hands a provider's routes when it assembles: a way to read a
/// verification, the clock it runs on, and the URL it is reached at.
public struct ProviderContext: Sendable {
    /// The verification with the id, nil when there is none; throws when the store can't say.
    /// A route reads no more of the store than this.
    public let verification: @Sendable (_ id: String) async throws -> Verification?
    /// The clock the server runs on.
    public let clock: any TacitClock
    /// This server's base URL; meaningful once it listens, which is before any request.
    public let baseURL: @Sendable () -> String
    /// The verification id a check URL names when this server issued it; nil for any
    /// other URL (another host, a forged or foreign token).
    public let checkURLVerification: @Sendable (String) -> String?

    /// The context of a server that reads verifications through `verification`.
    public init(verification: @escaping @Sendable (String) async throws -> Verification?, clock: any TacitClock,
                baseURL: @escaping @Sendable () -> String,
                checkURLVerification: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.verification = verification
        self.clock = clock
        self.baseURL = baseURL
        self.checkURLVerification = checkURLVerification
    }
}
