import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStoreSQLite

@Suite("Migrator")
struct MigratorTests {
    struct Boom: Error {}

    static let migrator = Migrator([
        Migration("001_create_people", sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        Migration("002_add_email", sql: "ALTER TABLE people ADD COLUMN email TEXT"),
    ])

    @Test("migrations apply in order once, and a second open applies nothing")
    func idempotent() throws {
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            #expect(try Self.migrator.migrate(connection) == ["001_create_people", "002_add_email"])
            try connection.execute("INSERT INTO people (name, email) VALUES ('a', 'a@example.com')")
        }
        let reopened = try SQLiteConnection(path: file.path)
        #expect(try Self.migrator.migrate(reopened) == [])
        #expect(try Self.migrator.appliedMigrations(reopened) == ["001_create_people", "002_add_email"])
        #expect(try reopened.query("SELECT count(*) AS n FROM people").first?.int("n") == 1)
    }

    @Test("a new migration added later applies alone")
    func incremental() throws {
        let file = try TemporaryDatabase()
        let connection = try SQLiteConnection(path: file.path)
        try Migrator([Self.migrator.migrations[0]]).migrate(connection)
        #expect(try Self.migrator.migrate(connection) == ["002_add_email"])
    }

    @Test("a failing migration leaves no trace and is not recorded")
    func failure() throws {
        let file = try TemporaryDatabase()
        let connection = try SQLiteConnection(path: file.path)
        let failing = Migrator([
            Migration("001_half") { connection in
                try connection.executeScript("CREATE TABLE half (id INTEGER)")
                throw Boom()
            },
        ])
        #expect(throws: Boom.self) { try failing.migrate(connection) }
        #expect(try failing.appliedMigrations(connection) == [])
        #expect(try connection.query("SELECT name FROM sqlite_master WHERE name = 'half'").isEmpty)
    }

    @Test("after 017 a number whose newest verification is pending still refuses another, and one whose verifications all finished takes one")
    func onePendingPerNumberAcross017() async throws {
        struct Protection: FieldProtection {
            func seal(_ plaintext: [UInt8]) -> [UInt8] { plaintext }
            func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed }
            func index(_ value: String) -> String { "idx" + value }
        }
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "017_number_index_over_all_rows" }
            try Migrator(Array(before)).migrate(connection)
            for (id, number, status) in [("v1", "+99012345670", "completed"), ("v2", "+99012345671", "expired"), ("v3", "+99012345670", "pending")] {
                try connection.execute("""
                    INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at, last_seq, record)
                    VALUES (\(id), \("idx" + number), \([UInt8](number.utf8)), \(status), NULL, 0, 0, 1, \([UInt8]()))
                    """)
            }
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        store.protect(with: Protection())
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        func verification(_ id: String, _ number: String) -> Verification {
            Verification(id: id, phoneNumber: number, options: VerificationOptions(workflow: [.sms]), clientTokenHash: [7], createdAt: now)
        }
        await #expect(throws: StoreError.concurrentVerification) {
            _ = try await store.insert(verification("v4", "+99012345670"), events: [EventDraft("x:refused", note: "")], at: now, idempotency: nil)
        }
        _ = try await store.insert(verification("v5", "+99012345671"), events: [], at: now, idempotency: nil)
        let connection = try SQLiteConnection(path: file.path)
        let indexes = try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'verifications' AND sql IS NOT NULL ORDER BY name")
            .map { try $0.string("name") }
        // 020 adds retention's index, over finished rows only: a create writes nothing to it. The
        // list's index (insights_001) takes each create at its end, in creation order.
        #expect(indexes == ["verifications_by_application_created", "verifications_by_number", "verifications_finished",
                            "verifications_pending_deadline"])
        #expect(try connection.query("SELECT id FROM event_groups WHERE request_id = 'v4'").isEmpty, "the refused create's events are undone with it")
    }

    @Test("events stored before 014, 015 and 018 read back the same, one group each in their stored order, each linked to the one before")
    func eventsKeepTheirOrder() async throws {
        let file = try TemporaryDatabase()
        do {
            let connection = try SQLiteConnection(path: file.path)
            let before = SQLiteSchema.migrator.migrations.prefix { $0.name != "014_events_in_arrival_order" }
            try Migrator(Array(before)).migrate(connection)
            for id in ["a", "b"] {
                try connection.execute("""
                    INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at, last_seq, record)
                    VALUES (\(id), \(id), x'00', 'completed', NULL, 0, 0, 2, x'00')
                    """)
            }
            for (id, seq) in [("b", 2), ("a", 1), ("b", 1), ("a", 2)] {
                let body = Array(#"{"request_id":"\#(id)","seq":\#(seq),"label":"x:old","note":"","outcome":"info","source":"server","channel":null,"data":{},"at":"2026-11-30T00:00:00.000Z"}"#.utf8)
                try connection.execute("INSERT INTO events (request_id, seq, body) VALUES (\(id), \(seq), \(body))")
            }
        }
        let store = try SQLiteVerificationStore(path: file.path)
        try await store.migrate()
        #expect(try await store.events(id: "a", after: 0, limit: 10).map(\.seq) == [1, 2])
        #expect(try await store.events(id: "b", after: 1, limit: 10).map(\.seq) == [2])
        let connection = try SQLiteConnection(path: file.path)
        let groups = try connection.query("SELECT request_id, first_seq, last_seq FROM event_groups ORDER BY id")
            .map { "\(try $0.string("request_id"))\(try $0.int("first_seq"))-\(try $0.int("last_seq"))" }
        #expect(groups == ["a1-1", "a2-2", "b1-1", "b2-2"])
        let listed = try connection.query("SELECT request_id, seq FROM events ORDER BY request_id, seq")
            .map { "\(try $0.string("request_id"))\(try $0.int("seq"))" }
        #expect(listed == ["a1", "a2", "b1", "b2"])
        let links = try connection.query("""
            SELECT g.request_id || g.last_seq || '<' || COALESCE(p.request_id || p.last_seq, '-') AS link
            FROM event_groups g LEFT JOIN event_groups p ON p.id = g.previous ORDER BY g.request_id, g.last_seq
            """).map { try $0.string("link") }
        #expect(links == ["a1<-", "a2<a1", "b1<-", "b2<b1"])
        let newest = try connection.query("""
            SELECT v.id || g.last_seq AS newest FROM verifications v JOIN event_groups g ON g.id = v.last_group ORDER BY v.id
            """).map { try $0.string("newest") }
        #expect(newest == ["a2", "b2"])
    }
}
