import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

@Suite("Rate-limit rows across 019")
struct RateLimitMigrationTests {
    @Test("a fixed-window counter written before 019 still refuses until its window ends, then counts in a sliding window")
    func fixedWindowRowCarriesOver() async throws {
        let file = try TemporaryDatabase()
        let start = Date(timeIntervalSince1970: 1_800_000_000)   // a multiple of 600
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "019_rate_limit_buckets" }
            try Migrator(Array(before)).migrate(connection)
            try connection.execute("""
                INSERT INTO rate_limits (key, window_start, hits, expires_at)
                VALUES ('full', \(start.timeIntervalSince1970), 3, \(start.timeIntervalSince1970 + 600)),
                       ('one', \(start.timeIntervalSince1970), 1, \(start.timeIntervalSince1970 + 600))
                """)
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        let limit = RateLimit(3, per: 600)
        #expect(try await store.consume("full", limit, at: start.addingTimeInterval(100)) == .limited(retryAfter: 500))
        #expect(try await store.hits("one", limit, at: start.addingTimeInterval(100)) == 1)
        #expect(try await store.consume("full", limit, at: start.addingTimeInterval(600)) == .allowed(hits: 1))
        #expect(try await store.sweepRates(at: start.addingTimeInterval(600)) == 1, "the untouched old row ends with its window")
        #expect(try await store.sweepRates(at: start.addingTimeInterval(1_200)) == 1)
    }
}
