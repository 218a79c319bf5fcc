import Foundation
import TacitStore

/// The conversion windows, kept as a store without its own keeps them.
extension InMemoryStore: ConversionStore {
    public func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow? {
        try await conversion.countConversions(counts)
    }
}
