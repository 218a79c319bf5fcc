import Foundation
import TacitStore

/// The conversion windows, kept as a store without its own keeps them.
extension InMemoryStore: ConversionStore {
    public func countConversion(_ event: ConversionEvent, slot: Int64) async throws -> ConversionWindow? {
        try await conversion.countConversion(event, slot: slot)
    }
}
