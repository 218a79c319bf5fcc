import Foundation
import TacitCore
import TacitStore

/// What the application hands a provider's routes when it assembles: the store and
/// clock it runs on, and the URL it is reached at.
public struct ProviderContext: Sendable {
    public let store: any VerificationStore
    public let clock: any TacitClock
    /// This server's base URL; meaningful once it listens, which is before any request.
    public let baseURL: @Sendable () -> String
    /// The verification id a check URL names when this server issued it; nil for any
    /// other URL (another host, a forged or foreign token).
    public let checkURLVerification: @Sendable (String) -> String?

    public init(store: any VerificationStore, clock: any TacitClock, baseURL: @escaping @Sendable () -> String,
                checkURLVerification: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.store = store
        self.clock = clock
        self.baseURL = baseURL
        self.checkURLVerification = checkURLVerification
    }
}
