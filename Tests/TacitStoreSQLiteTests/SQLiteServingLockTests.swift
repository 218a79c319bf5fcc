import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

/// One server per SQLite file, and what that lets a starting server do: give back at once
/// the leases a killed server left (docs/deploy.md).
@Suite("SQLite serving lock")
struct SQLiteServingLockTests {
    static let now = StoreContractTests.now

    @Test("a second server on a file is refused while the first holds it, and takes it once the first lets go")
    func oneServerAFile() throws {
        let file = try TemporaryDatabase()
        var first: SQLiteServingLock? = try SQLiteServingLock(databasePath: file.path)
        #expect(throws: SQLiteServingLock.Taken.self) { try SQLiteServingLock(databasePath: file.path) }
        let other = try TemporaryDatabase()
        #expect(throws: Never.self, "another file is another lock") {
            _ = try SQLiteServingLock(databasePath: other.path)
        }
        withExtendedLifetime(first) {}
        first = nil
        #expect(throws: Never.self) { _ = try SQLiteServingLock(databasePath: file.path) }
    }

    @Test("releasing the leases makes every leased row due at once and leaves due rows as they were")
    func leasesGivenBack() async throws {
        let file = try TemporaryDatabase()
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        store.protect(with: StoreContractTests.Protection())
        for (id, number) in [("v1", "+99012345670"), ("v2", "+99012345671")] {
            _ = try await store.insert(StoreContractTests.verification(id, number), events: [], outbox: [],
                                       sends: [SendOutboxContractTests.row(id)], at: Self.now, idempotency: nil)
        }
        let held = try await store.claimSends(now: Self.now, lease: 10, limit: 1)
        #expect(held.map(\.verificationId) == ["v1"])
        let restart = Self.now.addingTimeInterval(1)
        #expect(try await store.claimSends(now: restart, lease: 10, limit: 8).map(\.verificationId) == ["v2"])
        #expect(try await store.releaseSendLeases(now: restart) == 2, "both rows were leased")
        #expect(try await store.nextSendDue() == restart)
        let taken = try await store.claimSends(now: restart, lease: 10, limit: 8)
        #expect(Set(taken.map(\.verificationId)) == ["v1", "v2"], "neither waits for its lease to end")
        #expect(try await store.releaseSendLeases(now: Self.now) == 2)
        #expect(try await store.releaseSendLeases(now: Self.now) == 0, "nothing leased is left")
    }
}
