import Foundation
import Testing
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// Retention (docs/security.md#retention) end to end: a running server deletes finished verifications
/// `TACIT_RETENTION_DAYS` after they finish, with every row that belongs to them.
@Suite("Retention", .timeLimit(.minutes(1)))
struct RetentionTests {
    static let day: TimeInterval = 86_400
    static let endpoint = WebhookEndpoint(url: "http://127.0.0.1:9/hooks", secrets: WebhookFixtures.secrets, events: [.cancelled])

    /// Thirty days' retention, rate limits counted from loopback, a webhook endpoint answered
    /// by the recording client, and a housekeeper that never wakes on its own: the test runs each round.
    static func configure(_ configuration: inout ServerConfiguration, _ dependencies: inout TacitApplication.Dependencies) {
        configuration.retentionDays = 30
        configuration.housekeepingInterval = 100 * 365 * day
        // Starts and sends then write the rate-limit counters a production server would.
        configuration.security.limitLoopbackInDev = true
        configuration.security.limitVirtualRange = true
        configuration.webhooks.endpoints = [endpoint]
        configuration.webhooks.allowPrivateTargets = true
    }

    /// Starts and cancels a verification, and waits until its webhook is delivered.
    static func finish(_ client: TestClient, _ number: String, attempts: inout AsyncStream<WebhookAttempt>.Iterator,
                       headers: [String: String] = [:]) async throws -> String {
        let reply = try await client.post("/v1/verifications", raw: #"{"phone_number":"\#(number)","workflow":[{"channel":"sms"}]}"#,
                                          headers: headers)
        let id = try #require(reply.string("request_id"))
        try await WebhookFixtures.cancel(client, id)
        #expect(try #require(await attempts.next()).result == .delivered)
        return id
    }

    @Test("a verification finished more than TACIT_RETENTION_DAYS ago is gone with all its rows; a younger one and a pending one are kept")
    func finishedPastRetention() async throws {
        try await TestApplication.test(.inProcess, configure: Self.configure) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let old = try await Self.finish(client, "+99012345671", attempts: &attempts, headers: ["Idempotency-Key": "retention-old"])
            #expect(try await app.store.rememberCallback(key: "replay-old", expiresAt: app.clock.now().addingTimeInterval(300), now: app.clock.now()))
            app.clock.advance(by: 20 * Self.day)
            let young = try await Self.finish(client, "+99012345672", attempts: &attempts)
            app.clock.advance(by: 11 * Self.day)
            let pending = try #require(try await client.start("+99012345673", channels: ["sms"]).reply.string("request_id"))

            let tables = try TableCounts(path: app.databasePath, now: app.clock.now(), ids: [old, young, pending])
            #expect(tables.owned[old]?.values.allSatisfy { $0 > 0 } == true, "the old verification has a row in every table it owns")
            #expect(tables.expiredRateLimits > 0)
            await app.application.sweepNow()
            let after = try TableCounts(path: app.databasePath, now: app.clock.now(), ids: [old, young, pending])

            var expected = tables.rows
            let owned = try #require(tables.owned[old])
            for (table, count) in owned { expected[table, default: 0] -= count }
            expected["idempotency", default: 0] -= 1
            expected["rate_limits", default: 0] -= tables.expiredRateLimits
            expected["callback_replay", default: 0] -= 1
            #expect(after.rows == expected, "every table, before and after: only the old verification's rows and expired ones went")
            #expect(after.owned[old]?.values.allSatisfy { $0 == 0 } == true)
            #expect(after.owned[young] == tables.owned[young])
            #expect(after.owned[pending] == tables.owned[pending])
            #expect(after.expiredRateLimits == 0)

            #expect(try await client.get("/v1/verifications/\(old)").status == 404)
            #expect(try await client.get("/v1/verifications/\(old)/events").status == 404)
            #expect(try await client.get("/v1/verifications/\(young)").string("status") == "cancelled")
            #expect(try await client.get("/v1/verifications/\(pending)").string("status") == "pending")
        }
    }

    @Test("/metrics counts the rows a round swept, by kind, and shows when the last round ran")
    func metricsMove() async throws {
        try await TestApplication.test(.inProcess, configure: Self.configure) { app, client in
            var attempts = try #require(app.application.webhookAttempts).makeAsyncIterator()
            let old = try await Self.finish(client, "+99012345671", attempts: &attempts)
            let events = try await app.store.events(id: old, after: 0, limit: 1_000).count
            let before = try await client.get("/metrics").text
            #expect(before.contains(#"tacit_housekeeping_swept_rows_total{kind="verifications"} 0"#))
            #expect(before.contains("tacit_housekeeping_last_sweep_timestamp_seconds 0\n"))
            app.clock.advance(by: 31 * Self.day)
            await app.application.sweepNow()
            let after = try await client.get("/metrics").text
            #expect(after.contains(#"tacit_housekeeping_swept_rows_total{kind="verifications"} 1"#))
            #expect(after.contains(#"tacit_housekeeping_swept_rows_total{kind="events"} \#(events)"#))
            #expect(after.contains(#"tacit_housekeeping_swept_rows_total{kind="outbox"} 1"#))
            #expect(after.contains("tacit_housekeeping_last_sweep_timestamp_seconds \(Int(app.clock.now().timeIntervalSince1970))\n"))
        }
    }
}

/// Rows in every table of the database file, and the rows each given verification owns.
struct TableCounts {
    var rows: [String: Int] = [:]
    var owned: [String: [String: Int]] = [:]
    var expiredRateLimits = 0

    init(path: String, now: Date, ids: [String]) throws {
        let db = try SQLiteConnection(path: path, options: SQLiteOptions(readOnly: true))
        defer { db.close() }
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map { try $0.string("name") }
        #expect(tables.count >= 9, "the schema's tables: \(tables)")
        for table in tables {
            rows[table] = try db.query(SQL(stringLiteral: "SELECT COUNT(*) AS n FROM \(table)")).first?.int("n") ?? 0
        }
        for id in ids {
            owned[id] = [
                "verifications": try Self.count(db, "SELECT COUNT(*) AS n FROM verifications WHERE id = \(id)"),
                "event_groups": try Self.count(db, "SELECT COUNT(*) AS n FROM event_groups WHERE request_id = \(id)"),
                "webhook_outbox": try Self.count(db, "SELECT COUNT(*) AS n FROM webhook_outbox WHERE request_id = \(id)"),
            ]
        }
        expiredRateLimits = try Self.count(db, "SELECT COUNT(*) AS n FROM rate_limits WHERE expires_at <= \(now.timeIntervalSince1970)")
    }

    static func count(_ db: SQLiteConnection, _ sql: SQL) throws -> Int {
        try db.query(sql).first?.int("n") ?? 0
    }
}
