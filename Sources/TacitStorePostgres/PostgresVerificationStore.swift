import Foundation
import Synchronization
import TacitCore
import TacitStore

/// The store for several instances: every table in one PostgreSQL database, reached
/// through a small pool whose libpq calls run on threads of their own. Whatever the
/// SQLite store guarantees through its single writer, this one guarantees through the
/// database: a unique partial index for one pending verification per number, a version
/// column for every update's compare-and-set, `FOR UPDATE SKIP LOCKED` for claims, and
/// upserts for the replay cache and the counters.
public final class PostgresVerificationStore: VerificationStore {
    let pool: PostgresPool
    private let fields = Mutex<(any FieldProtection)?>(nil)
    /// The change feed's connection while it listens (`listen`).
    let listenerBackend = Mutex<Int32?>(nil)
    /// The version and state of recently written or read verifications: where `update`
    /// starts, and what the guards before a check read, instead of the row. Another
    /// instance's write moves the row's version on, so a kept state it made stale fails
    /// the update's compare-and-set once and the row is read again.
    let recent = RecentStates<Int>()
    /// Applications' settings, kept a second: every start reads its application's defaults.
    let keptSettings = KeptPerApplication<ApplicationSettings?>()
    let keptTemplates = KeptPerApplication<[MessageTemplate]>()
    /// Applications' test numbers, kept a second: every start looks its number up in them.
    let keptTestNumbers = KeptPerApplication<[TestNumber]>()
    /// Applications' safe lists, kept a second: every start looks its number up in them.
    let keptSafeLists = KeptPerApplication<[SafeListEntry]>()
    /// Applications' geo permissions, kept a second: every start reads them.
    let keptGeoPermissions = KeptPerApplication<[GeoPermission]>()

    /// `url` is `postgres://USER@HOST:PORT/DATABASE` (any form libpq reads). Nothing
    /// connects until the first call, and a connection opens only when every open one is
    /// busy. Three: writes that find every connection busy go together as one transaction
    /// (`PostgresPool.write`), so a few connections each carrying several creates beat
    /// many carrying one each. In turns, creates/s: six 1.28 times sixteen, three 1.14
    /// times six; two was faster still (1.10 times three), but would leave a slow read or
    /// sweep holding half the pool.
    public init(url: String, poolSize: Int = 3) {
        pool = PostgresPool(conninfo: url, size: poolSize)
    }

    public func protect(with fields: any FieldProtection) { self.fields.withLock { $0 = fields } }

    func protection() throws -> any FieldProtection {
        guard let fields = fields.withLock({ $0 }) else {
            throw StoreError.backend("field protection is not configured")
        }
        return fields
    }

    public func migrate() async throws {
        try await read { db in _ = try PostgresSchema.migrator.migrate(db) }
    }

    /// Runs `body` on a connection, outside a transaction (one statement, or reads).
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        do { return try await pool.withConnection(body) } catch let error as PostgresError { throw StoreError(error) }
    }

    /// Makes the transaction it runs in commit without waiting for its WAL flush, for
    /// writes whose loss in a crash of PostgreSQL costs nothing that matters (dev state, a
    /// statistic): they are visible to every other transaction at commit all the same.
    static let asynchronousCommit: PostgresQuery = "SET LOCAL synchronous_commit TO off"

    /// Runs `body` in one transaction. `refusal` turns a failure the caller expects (a
    /// required change that changed nothing, a key already taken) into its own error: a
    /// queued statement's failure reaches the caller only at the commit, outside `body`.
    /// Any other PostgreSQL error is the backend's.
    func write<T: Sendable>(refusal: @Sendable (PostgresError) -> (any Error)? = { _ in nil },
                            _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        do { return try await pool.transaction(body) } catch let error as PostgresError {
            throw refusal(error) ?? StoreError(error)
        }
    }

    /// Runs `statement` as a transaction of its own, with other writes that wait for a
    /// connection when it does (`PostgresPool.write`); `key` names what it locks, and
    /// `durable: false` says it turns its commit asynchronous.
    func write(_ statement: PostgresQuery, locking key: String, durable: Bool = true,
               refusal: @Sendable (PostgresError) -> (any Error)? = { _ in nil }) async throws {
        do { try await pool.write(statement, key: key, durable: durable) } catch let error as PostgresError {
            throw refusal(error) ?? StoreError(error)
        }
    }

    public func verification(id: String) async throws -> Verification? {
        let fields = try protection()
        let scope = StoreScope.application
        guard let stored = try await read({ db in
            try Self.stored(id, db, fields, lock: false, visibleTo: scope)
        }) else { return nil }
        recent.put(id, stored.version, stored.verification)
        return stored.verification
    }

    public func recentVerification(id: String) async throws -> Verification? {
        if let kept = recent.peek(id, visibleTo: StoreScope.application) { return kept.verification }
        return try await verification(id: id)
    }

    public func events(id: String, after: Int, limit: Int) async throws -> [TimelineEvent] {
        let scope = StoreScope.application
        let rows = try await read { db in
            try db.query("""
                SELECT body FROM events WHERE verification_id = \(id) AND seq > \(after)
                    AND EXISTS (SELECT 1 FROM verifications
                                WHERE id = \(id) AND (\(scope)::text IS NULL OR application_id = \(scope)))
                ORDER BY seq LIMIT \(limit)
                """)
        }
        let decoder = JSONDecoder()
        return try rows.map { try decoder.decode(TimelineEvent.self, from: Data(try $0.bytes("body"))) }
    }

    public func deadlines(dueBy cutoff: Date, limit: Int) async throws -> [Deadline] {
        let rows = try await read { db in
            try db.query("""
                SELECT id, deadline FROM verifications
                WHERE status = 'pending' AND deadline <= \(cutoff.timeIntervalSince1970)
                ORDER BY deadline LIMIT \(limit)
                """)
        }
        return try rows.map { Deadline(id: try $0.string("id"), at: try $0.date("deadline")) }
    }

    public func pendingCount() async throws -> Int {
        try await read { db in
            try db.query("SELECT count(*) AS n FROM verifications WHERE status = 'pending'").first?.int("n") ?? 0
        }
    }

    /// One statement for a write's events, however many: a check records five, and a
    /// statement each was a fifth of what PostgreSQL parsed, planned and ran for it. The
    /// text differs only by the number of rows, so a few prepared statements serve all.
    static func inserts(_ events: [TimelineEvent]) -> [PostgresQuery] {
        guard !events.isEmpty else { return [] }
        let rows = PostgresQuery(joining: events.map { event in
            "(\(event.requestId), \(event.seq), \(event.jsonBytes))"
        }, separator: ", ")
        return ["INSERT INTO events (verification_id, seq, body) VALUES \(rows)"]
    }

    /// When `verification`, as written at `at`, finished; nil while it is pending.
    static func finishedAt(_ verification: Verification, at: Date) -> Double? {
        verification.status == .pending ? nil : (verification.endedAt ?? at).timeIntervalSince1970
    }
}
