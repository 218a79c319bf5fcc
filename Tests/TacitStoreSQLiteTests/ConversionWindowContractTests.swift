import Foundation
import Testing
import TacitStore
import TacitTesting

/// The conversion monitor's windows against every store, through two instances of one
/// database (`CountedRatesContractTests.pair`).
@Suite("Conversion windows in the store")
struct ConversionWindowContractTests {
    @Test("sends and verifications through two instances add up in one window, which the next window's first event takes once",
          arguments: StoreContractTests.Kind.allCases)
    func sharedWindow(kind: StoreContractTests.Kind) async throws {
        let (first, second, directory) = try await CountedRatesContractTests.pair(kind)
        for index in 0..<6 {
            #expect(try await (index.isMultiple(of: 2) ? first : second).countConversion(.sent, slot: 10) == nil)
        }
        #expect(try await second.countConversion(.verified, slot: 10) == nil)
        let closed = try await first.countConversion(.sent, slot: 11)
        #expect(closed == ConversionWindow(slot: 10, sends: 6, verified: 1))
        #expect(try await second.countConversion(.sent, slot: 11) == nil, "the other instance doesn't judge it again")
        #expect(try await second.countConversion(.verified, slot: 13) == ConversionWindow(slot: 11, sends: 2, verified: 0),
                "a window with no events in between: the latest one before is judged")
        _ = directory
    }

    @Test("counts held back by one instance for a window another has judged already are dropped, not judged again",
          arguments: StoreContractTests.Kind.allCases)
    func lateCounts(kind: StoreContractTests.Kind) async throws {
        let (first, second, directory) = try await CountedRatesContractTests.pair(kind)
        _ = try await first.countConversions(ConversionWindow(slot: 30, sends: 4, verified: 1))
        #expect(try await first.countConversions(ConversionWindow(slot: 31, sends: 1)) == ConversionWindow(slot: 30, sends: 4, verified: 1))
        #expect(try await second.countConversions(ConversionWindow(slot: 30, sends: 2, verified: 2)) == nil)
        #expect(try await second.countConversions(ConversionWindow(slot: 31, sends: 3)) == nil, "window 30 is not back to be judged")
        #expect(try await first.countConversion(.sent, slot: 32) == ConversionWindow(slot: 31, sends: 4, verified: 0))
        _ = directory
    }

    @Test("of many events crossing into a new window at once through two instances, exactly one takes the old window",
          arguments: StoreContractTests.Kind.allCases)
    func oneJudge(kind: StoreContractTests.Kind) async throws {
        let (first, second, directory) = try await CountedRatesContractTests.pair(kind)
        for _ in 0..<3 { _ = try await first.countConversion(.sent, slot: 20) }
        let taken = try await withThrowingTaskGroup(of: ConversionWindow?.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask { try await store.countConversion(.sent, slot: 21) }
            }
            return try await group.reduce(into: [ConversionWindow]()) { if let window = $1 { $0.append(window) } }
        }
        #expect(taken == [ConversionWindow(slot: 20, sends: 3, verified: 0)])
        #expect(try await first.countConversion(.sent, slot: 22) == ConversionWindow(slot: 21, sends: 20, verified: 0),
                "no count of the new window was lost")
        _ = directory
    }
}
