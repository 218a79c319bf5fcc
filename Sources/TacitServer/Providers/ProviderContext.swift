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

    public init(store: any VerificationStore, clock: any TacitClock, baseURL: @escaping @Sendable () -> String) {
        self.store = store
        self.clock = clock
        self.baseURL = baseURL
    }
}
