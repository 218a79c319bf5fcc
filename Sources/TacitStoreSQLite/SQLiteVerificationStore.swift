import Foundation
import TacitCore
import TacitStore

/// The embedded store: one SQLite file in WAL mode, one writer. Phone numbers are
/// sealed by `FieldProtection`; events are stored already redacted.
public final class SQLiteVerificationStore: VerificationStore {
    let database: SQLiteDatabase
    let protection: LazyProtection
    /// The last state read or written of recently used verifications: where `update`
    /// starts, instead of reading the row again.
    let recent = RecentStates<Snapshot>()
    /// Applications' settings, kept a second: every start reads its application's defaults.
    let keptSettings = KeptPerApplication<ApplicationSettings?>()
    let keptTemplates = KeptPerApplication<[MessageTemplate]>()
    /// Applications' test numbers, kept a second: every start looks its number up in them.
    let keptTestNumbers = KeptPerApplication<[TestNumber]>()
    /// Applications' safe lists, kept a second: every start looks its number up in them.
    let keptSafeLists = KeptPerApplication<[SafeListEntry]>()
    /// Applications' geo permissions, kept a second: every start reads them.
    let keptGeoPermissions = KeptPerApplication<[GeoPermission]>()

    /// `protection` may be set after opening (the keys live in the store's own settings).
    public init(path: String, options: SQLiteOptions = SQLiteOptions()) throws {
        database = try SQLiteDatabase(path: path, options: options)
        protection = LazyProtection()
    }

    /// Sets how phone numbers are sealed; call once, before any verification is written.
    public func protect(with fields: any FieldProtection) { protection.set(fields) }

    public func migrate() async throws {
        try await database.migrate(SQLiteSchema.migrator)
    }

    public func insert(_ verification: Verification, events: [EventDraft], outbox: [OutboxMessage],
                       sends: [QueuedSend], at: Date,
                       idempotency: IdempotencyRecord?) async throws -> [TimelineEvent] {
        let fields = try protection.get()
        let indexes = try fields.indexes(verification.contact)
        let index = indexes[0]
        let sealed = try fields.seal(SealedContact.plaintext(phoneNumber: verification.phoneNumber,
                                                             emailAddress: verification.emailAddress))
        // Everything but the statements is worked out before the writer's turn.
        var stored = verification
        let recorded = stored.record(events, at: at)
        let rendered = RenderedEvents(recorded)
        let record = VerificationRecord.encode(stored)
        let lastGroup = try await database.write { [stored] db in
            if let idempotency {
                do {
                    try db.execute("""
                        INSERT INTO idempotency (key, request_hash, status, body, created_at, application_id)
                        VALUES (\(idempotency.key), \(idempotency.requestHash), 0, \([UInt8]()),
                                \(idempotency.createdAt.timeIntervalSince1970), \(idempotency.applicationId))
                        """)
                } catch let error as SQLiteError where error.isConstraintViolation {
                    throw StoreError.idempotencyKeyReused
                }
            }
            let lastGroup = try Self.append(rendered, after: nil, db)
            // One pending verification per number and application. Creates are serialised by
            // the writer, and none is made while the number has a pending verification of the
            // application, so that one, if any, is always the number's newest row of it: the
            // insert happens only when it is not. Rows indexed under an older key, until
            // resealed, count too. Another application's verification of the number is not
            // seen: a 409 would tell that application the number is being verified elsewhere.
            try db.execute("""
                INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at,
                                           last_seq, record, last_group, finished_at, application_id, face)
                SELECT \(stored.id), \(index), \(sealed), \(stored.status.rawValue),
                       \(stored.deadline?.timeIntervalSince1970), \(stored.createdAt.timeIntervalSince1970),
                       \(at.timeIntervalSince1970), \(stored.lastSeq), \(record), \(lastGroup),
                       \(Self.finishedAt(stored, at: at)), \(stored.applicationId), \(stored.face)
                WHERE (SELECT status FROM verifications
                       WHERE phone_index IN (\(list: indexes)) AND application_id = \(stored.applicationId)
                       ORDER BY rowid DESC LIMIT 1) IS NOT 'pending'
                """)
            guard db.changes == 1 else { throw StoreError.concurrentVerification }
            try Self.append(outbox, db)
            try Self.append(sends, db)
            return lastGroup
        }
        recent.put(stored.id, Snapshot(stored, record: record, lastGroup: lastGroup), stored)
        return recorded
    }

    public func verification(id: String) async throws -> Verification? {
        let fields = try protection.get()
        let scope = StoreScope.application
        guard let stored = try await database.read({ db in try Self.stored(id, db, fields, visibleTo: scope) }) else {
            return nil
        }
        recent.put(id, stored.snapshot, stored.verification)
        return stored.verification
    }

    public func recentVerification(id: String) async throws -> Verification? {
        if let kept = recent.peek(id, visibleTo: StoreScope.application) { return kept.verification }
        return try await verification(id: id)
    }

    public func events(id: String, after: Int, limit: Int) async throws -> [TimelineEvent] {
        // A verification's groups link back from its newest, and seqs have no gaps: the
        // walk goes back while the group before may still end past `after`. Only the
        // oldest group it reads may also hold events up to `after`. Only groups that start
        // within the page are decoded: a page read of a long timeline costs its own size.
        let through = after.addingReportingOverflow(limit)
        let last = through.overflow ? Int.max : through.partialValue
        let scoped = Self.scoped(to: StoreScope.application)
        let rows = try await database.read { db in
            try db.query("""
                WITH RECURSIVE chain(id, previous, first_seq, body) AS (
                    SELECT id, previous, first_seq, body FROM event_groups
                        WHERE id = (SELECT last_group FROM verifications WHERE id = \(id) \(scoped))
                            AND last_seq > \(after)
                    UNION ALL
                    SELECT g.id, g.previous, g.first_seq, g.body FROM chain JOIN event_groups g ON g.id = chain.previous
                        WHERE chain.first_seq > \(after) + 1
                )
                SELECT body FROM chain WHERE first_seq <= \(last) ORDER BY first_seq
                """)
        }
        let decoder = JSONDecoder()
        let events = try rows.flatMap { try decoder.decode([TimelineEvent].self, from: Data(try $0.blob("body"))) }
        return Array(events.lazy.filter { $0.seq > after }.prefix(limit))
    }

    public func deadlines(dueBy cutoff: Date, limit: Int) async throws -> [Deadline] {
        let rows = try await database.read { db in
            try db.query("""
                SELECT id, deadline FROM verifications
                WHERE status = 'pending' AND deadline <= \(cutoff.timeIntervalSince1970)
                ORDER BY deadline LIMIT \(limit)
                """)
        }
        return try rows.map {
            Deadline(id: try $0.string("id"), at: Date(timeIntervalSince1970: try $0.double("deadline")))
        }
    }

    public func pendingCount() async throws -> Int {
        try await database.read { db in
            try db.query("SELECT COUNT(*) AS n FROM verifications WHERE status = 'pending'").first?.int("n") ?? 0
        }
    }

    /// The events one change records, written as one JSON array, ready to insert as one row.
    struct RenderedEvents: Sendable {
        let requestId: String
        let firstSeq: Int
        let lastSeq: Int
        let body: [UInt8]

        /// Nil when the change records no events.
        init?(_ events: [TimelineEvent]) {
            guard let first = events.first, let last = events.last else { return nil }
            var body: [UInt8] = [UInt8(ascii: "[")]
            for (index, event) in events.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += event.jsonBytes
            }
            body.append(UInt8(ascii: "]"))
            (requestId, firstSeq, lastSeq, self.body) = (first.requestId, first.seq, last.seq, body)
        }
    }

    /// Inserts `events` as one group linked back to the group `after`; returns the
    /// verification's newest group from then on.
    static func append(_ events: RenderedEvents?, after previous: Int?, _ db: SQLiteConnection) throws -> Int? {
        guard let events else { return previous }
        try db.execute("""
            INSERT INTO event_groups (request_id, first_seq, last_seq, previous, body)
            VALUES (\(events.requestId), \(events.firstSeq), \(events.lastSeq), \(previous), \(events.body))
            """)
        return Int(db.lastInsertRowID)
    }

    /// The row for `id`: the snapshot an update is confirmed against, and the verification it
    /// holds. nil when no row has the id or, with `application`, when that application's
    /// doesn't: one query for both, so another application's row costs what a missing one does.
    static func stored(_ id: String, _ db: SQLiteConnection, _ fields: any FieldProtection,
                       visibleTo application: String?) throws
        -> (snapshot: Snapshot, verification: Verification)? {
        guard let row = try db.query("SELECT * FROM verifications WHERE id = \(id) \(scoped(to: application))")
            .first else {
            return nil
        }
        return (try Snapshot(row), try verification(row, fields))
    }

    /// The condition that keeps a query on `verifications` to `application`'s rows; nothing unscoped.
    static func scoped(to application: String?) -> SQL {
        guard let application else { return "" }
        return "AND application_id = \(application)"
    }

    static func verification(_ row: Row, _ fields: any FieldProtection) throws -> Verification {
        let contact = SealedContact.read(try fields.open(try row.blob("phone_sealed")))
        guard let status = VerificationStatus(rawValue: try row.string("status")) else {
            throw StoreError.backend("unknown status")
        }
        var verification = try VerificationRecord.decode(try row.blob("record")).verification(
            id: try row.string("id"), phoneNumber: contact.phoneNumber, status: status,
            deadline: try row.optionalDouble("deadline").map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: try row.double("created_at")), lastSeq: try row.int("last_seq"))
        verification.applicationId = try row.string("application_id")
        verification.face = try row.string("face")
        verification.emailAddress = contact.emailAddress
        return verification
    }
}
