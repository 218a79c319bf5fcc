import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStoreSQLite

@Suite("Retention migration")
struct RetentionMigrationTests {
    @Test("a verification finished before 020 counts as finished at its last write, and a pending one stays pending and unswept")
    func finishedBeforeTheMigration() async throws {
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "020_finished_at" }
            try Migrator(Array(before)).migrate(connection)
            for (id, number, status, updated) in [("done", "+99012345670", "completed", 1_000.0), ("late", "+99012345671", "expired", 5_000.0),
                                                  ("live", "+99012345672", "pending", 0.0)] {
                try connection.execute("""
                    INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at, last_seq, record)
                    VALUES (\(id), \("idx" + number), \([UInt8](number.utf8)), \(status), NULL, 0, \(updated), 0, \([UInt8]()))
                    """)
            }
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        let swept = try await store.sweepFinished(before: Date(timeIntervalSince1970: 2_000), limit: 500)
        #expect(swept.verifications == 1, "only the row last written at 1,000 s")
        let connection = try SQLiteConnection(path: file.path)
        let left = try connection.query("SELECT id, finished_at FROM verifications ORDER BY id").map { try ($0.string("id"), $0.optionalDouble("finished_at")) }
        #expect(left.map(\.0) == ["late", "live"])
        #expect(left.map(\.1) == [5_000, nil])
        #expect(try await store.sweepFinished(before: Date(timeIntervalSince1970: 1e12), limit: 500).verifications == 1, "never the pending one")
    }
}
