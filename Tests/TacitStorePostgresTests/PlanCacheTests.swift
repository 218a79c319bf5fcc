import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitStorePostgres
import TacitTesting

/// A create and the update that records its send's answer are a PostgreSQL statement each,
/// run many times a second. PostgreSQL plans a prepared statement five times with its
/// values, then keeps one plan for all values if that plan looks no dearer; one whose plan
/// with the values folded in always looks cheaper is planned again on every run. Two of
/// them were (a test of a value folded away, an array whose length changed the estimate).
@Suite("PostgreSQL plan cache", .enabled(if: PostgresCluster.enabled))
struct PlanCacheTests {
    static let runs = 12

    @Test("the create's and the send answer's statements keep one plan after their first runs")
    func hotStatementsKeepOnePlan() async throws {
        let (store, _) = try await PostgresCluster.makeStore(poolSize: 1)
        store.protect(with: XORProtection())
        // Plans are chosen by the tables' statistics: these are of tables in use.
        try await store.pool.withConnection { db in
            try db.script("""
                INSERT INTO send_outbox (id, verification_id, step, channel, sealed_code, created_at, due_at)
                    SELECT 'old' || n, 'old' || n, 0, 'sms', '\\x00', 0, 0 FROM generate_series(1, 5000) AS n;
                INSERT INTO verifications (id, application_id, face, phone_index, phone_sealed, status, created_at, updated_at,
                                           finished_at, last_seq, version, record)
                    SELECT 'old' || n, 'default', 'v1', 'old' || n, '\\x00', 'completed', 0, 0, 0, 1, 1, '\\x00'
                    FROM generate_series(1, 5000) AS n;
                ANALYZE send_outbox;
                ANALYZE verifications;
                """)
        }
        for index in 0..<Self.runs {
            let id = "v\(index)"
            let send = QueuedSend(id: QueuedSend.key(verificationId: id, step: 0), verificationId: id, step: 0, channel: "sms",
                                  sealedCode: [9], createdAt: TwoInstanceTests.now)
            _ = try await store.insert(TwoInstanceTests.verification(id, "+990123456\(10 + index)"), events: [EventDraft("x:one", note: "one")],
                                       outbox: [], sends: [send], at: TwoInstanceTests.now, idempotency: nil)
            _ = try await store.update(id: id, at: TwoInstanceTests.now) { _ in
                StoreChange((), events: [EventDraft("x:sent", note: "sent")], sendsDone: [send.id])
            }
        }
        // The pool's one connection is the one that ran them: prepared statements are its own.
        let plans = try await store.pool.withConnection { db in
            try db.query("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements").map { row in
                (statement: try row.string("statement"), generic: try row.int("generic_plans"), custom: try row.int("custom_plans"))
            }
        }
        let writes = plans.filter { $0.statement.contains("INSERT INTO verifications") || $0.statement.contains("UPDATE verifications") }
        #expect(writes.count == 2)
        for plan in writes {
            #expect(plan.generic + plan.custom == Self.runs)
            #expect(plan.custom <= 5, "planned again on every run: \(plan.statement.prefix(60))")
        }
    }
}
