import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitStoreSQLite

/// The rollups of the writes a group commit runs together are merged and written once,
/// before the COMMIT: the rows come out as if each change had written its own, and a
/// change that fails leaves no count.
@Suite("SQLite rollups per transaction")
struct PendingRollupsTests {
    struct Boom: Error {}
    static let now = InsightStoreContractTests.now

    static func store() async throws -> SQLiteVerificationStore {
        let (store, _) = try await StoreContractTests.make(.sqlite)
        return try #require(store as? SQLiteVerificationStore)
    }

    /// Every rollup row, in key order, as text.
    static func rows(_ store: SQLiteVerificationStore) async throws -> [String] {
        let columns = "application_id, span, hour, dimension, key, currency, "
            + InsightCounts.columns.joined(separator: ", ")
        let rows = try await store.database.read { db in
            try db.query("""
                SELECT \(raw: columns) FROM insight_rollups ORDER BY application_id, span, hour, dimension, key
                """)
        }
        return try rows.map { row in
            let counts = InsightCounts(columnValues: try InsightCounts.columns.map { try row.int64($0) })
            return try "\(row.string("application_id")) \(row.int64("span")) \(row.int64("hour")) "
                + "\(row.string("dimension")) \(row.string("key")) \(row.string("currency")) \(counts.columnValues)"
        }
    }

    /// Creates in two countries, one with a provider and a price, so rows are shared and apart.
    static func verifications() -> [Verification] {
        (0..<24).map { index in
            let region = index % 3 == 0 ? "FR" : "GB"
            let number = region == "FR" ? "+3361234\(5000 + index)" : "+4474001\(23000 + index)"
            return InsightStoreContractTests.verification("v\(index)", number, region: region,
                                                          workflow: index % 2 == 0 ? [.sms] : [.voice])
        }
    }

    static func deltas(_ v: Verification) -> [RollupDelta] {
        var after = v
        after.acceptedSends.append(AcceptedSend(step: 0, channel: after.workflow[0].channel, provider: "twilio",
                                                price: "0.0079", currency: "USD", priceSource: .table))
        return InsightTally.deltas(from: nil, to: after, events: [], at: now)
    }

    @Test("a batch of several writes leaves the same rollup rows as the writes one by one")
    func batchMatchesOneByOne() async throws {
        let alone = try await Self.store(), batched = try await Self.store()
        let app = Verification.defaultApplication
        for v in Self.verifications() {
            let deltas = Self.deltas(v)
            try await alone.database.write { db in try SQLiteVerificationStore.apply(deltas, application: app, db) }
        }
        // As a group commit runs them: each write in its own savepoint of one transaction.
        let all = Self.verifications().map(Self.deltas)
        let heldUntilCommit = try await batched.database.write { db in
            for deltas in all {
                try db.transaction { try SQLiteVerificationStore.apply(deltas, application: app, db) }
            }
            return try db.query("SELECT COUNT(*) AS n FROM insight_rollups")[0].int("n")
        }
        #expect(heldUntilCommit == 0, "the batch's rows are written once, just before its commit")
        let expected = try await Self.rows(alone)
        #expect(expected.count > 8)
        #expect(try await Self.rows(batched) == expected)
    }

    @Test("concurrent creates, committed in batches, leave the rows of the same creates one by one")
    func concurrentCreates() async throws {
        let alone = try await Self.store(), concurrent = try await Self.store()
        for v in Self.verifications() {
            try await InsightStoreContractTests.create(v, in: alone)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for v in Self.verifications() {
                group.addTask { try await InsightStoreContractTests.create(v, in: concurrent) }
            }
            try await group.waitForAll()
        }
        #expect(try await Self.rows(concurrent) == Self.rows(alone))
    }

    @Test("a write that throws after adding its deltas leaves no count, alone or in a batch")
    func failedWriteLeavesNoCount() async throws {
        let store = try await Self.store()
        let app = Verification.defaultApplication
        let (first, second) = (Self.deltas(Self.verifications()[0]), Self.deltas(Self.verifications()[1]))
        await #expect(throws: Boom.self) {
            try await store.database.write { db in
                try SQLiteVerificationStore.apply(first, application: app, db)
                throw Boom()
            }
        }
        #expect(try await Self.rows(store) == [])
        try await store.database.write { db in
            _ = try? db.transaction {
                try SQLiteVerificationStore.apply(first, application: app, db)
                throw Boom()
            }
            try db.transaction { try SQLiteVerificationStore.apply(second, application: app, db) }
        }
        let reference = try await Self.store()
        try await reference.database.write { db in try SQLiteVerificationStore.apply(second, application: app, db) }
        #expect(try await Self.rows(store) == Self.rows(reference))
    }
}
