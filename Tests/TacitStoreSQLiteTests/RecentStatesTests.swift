import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitStoreSQLite

@Suite("Recent states kept by a store (here with the SQLite store's snapshots)")
struct RecentStatesTests {
    static func state(_ id: String) -> (SQLiteVerificationStore.Snapshot, Verification) {
        let verification = StoreContractTests.verification(id)
        return (SQLiteVerificationStore.Snapshot(verification, record: [1, 2, 3], lastGroup: nil), verification)
    }

    @Test("peek leaves a state in place, take removes it")
    func peekAndTake() {
        let recent = RecentStates<SQLiteVerificationStore.Snapshot>()
        let (snapshot, verification) = Self.state("a")
        recent.put("a", snapshot, verification)
        #expect(recent.peek("a")?.verification.id == "a")
        #expect(recent.take("a")?.snapshot == snapshot)
        #expect(recent.peek("a") == nil)
        #expect(recent.take("a") == nil)
    }

    @Test("states from the last two generations stay; older ones go, and a state put again is new")
    func generations() {
        let recent = RecentStates<SQLiteVerificationStore.Snapshot>()
        let size = RecentStates<SQLiteVerificationStore.Snapshot>.generation
        let (snapshot, verification) = Self.state("v")
        for index in 0..<size { recent.put("a-\(index)", snapshot, verification) }
        // The next new id starts a generation: the first one is older now, still kept.
        recent.put("b-0", snapshot, verification)
        #expect(recent.peek("a-0") != nil && recent.peek("a-1") != nil && recent.peek("b-0") != nil)
        // Put again, a state moves to the newer generation.
        recent.put("a-0", snapshot, verification)
        for index in 1..<(size - 1) { recent.put("b-\(index)", snapshot, verification) }
        #expect(recent.peek("a-1") != nil)
        // The newer generation is full again: the next new id drops the older one.
        recent.put("c-0", snapshot, verification)
        #expect(recent.peek("a-1") == nil && recent.peek("a-\(size - 1)") == nil)
        #expect(recent.peek("a-0") != nil && recent.peek("b-0") != nil && recent.peek("c-0") != nil)
    }
}
