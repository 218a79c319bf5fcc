import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStorePostgres
import TacitTesting

/// What a dump of the PostgreSQL database would show: no number, code or token in clear.
@Suite("PostgreSQL stored fields", .enabled(if: PostgresCluster.enabled))
struct StoredFieldsTests {
    @Test("no table holds the number or the code, as text or as bytes")
    func nothingInClear() async throws {
        let (store, url) = try await PostgresCluster.makeStore()
        store.protect(with: XORProtection())
        let number = "+99012345670", code = "482913"
        _ = try await store.insert(TwoInstanceTests.verification("a", number), events: [EventDraft("x:one", note: "one")],
                                   at: TwoInstanceTests.now, idempotency: nil)
        _ = try await store.update(id: "a", at: TwoInstanceTests.now) { _ in
            StoreChange((), events: [EventDraft("x:two", note: "two", data: ["phone_number": .phone(number), "code": .code(code)])])
        }
        let pool = PostgresPool(conninfo: url, size: 1)
        let dump = try await pool.withConnection { db in
            let tables = try db.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").map { try $0.string("tablename") }
            // Table names come from the catalogue, never from input.
            return try tables.flatMap { table in
                try db.query(PostgresQuery(stringLiteral: "SELECT t::text AS row FROM \(table) t")).map { try $0.string("row") }
            }.joined(separator: "\n")
        }
        #expect(dump.contains("idx-"), "the dump holds the rows")
        for secret in [String(number.dropFirst()), code] {
            #expect(!dump.contains(secret))
            #expect(!dump.contains(secret.utf8.map { String(format: "%02x", $0) }.joined()), "not as bytea either")
        }
    }
}
