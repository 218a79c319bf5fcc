import TacitStore

extension ConversionStore {
    /// Counts one event in window `slot` (see `countConversions`): how the store contract
    /// tests count, one event a call, where the monitor writes a second's counts at once.
    public func countConversion(_ event: ConversionEvent, slot: Int64) async throws -> ConversionWindow? {
        try await countConversions(ConversionWindow(slot: slot, sends: event == .sent ? 1 : 0,
                                                    verified: event == .verified ? 1 : 0))
    }
}
