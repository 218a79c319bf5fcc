import Foundation
import Synchronization
import TacitCrypto
import TacitOperator
import TacitStore

/// The virtual operator's signing key, kept sealed in the store: the first instance to
/// ask proposes a random one and every instance on the database reads back the same, so
/// a verdict signed by one instance's gateway is verified by any instance. Read once per
/// process, then kept in memory.
final class StoredOperatorKey: OperatorKeySource {
    static let name = "operator_signing_key"
    let store: any DevStateStore
    private let cached = Mutex<[UInt8]?>(nil)

    init(store: any DevStateStore) { self.store = store }

    func signingKey() async throws -> [UInt8] {
        if let key = cached.withLock({ $0 }) { return key }
        let key = try await store.devSecret(Self.name, proposed: SecureRandom.bytes(32))
        cached.withLock { $0 = key }
        return key
    }
}
