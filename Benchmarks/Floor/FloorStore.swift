import Foundation
import Synchronization
import TacitCore
import TacitServer
import TacitStoreSQLite

/// The bytes of the event groups Tacit writes for each change, as measured in its database.
enum GroupSize {
    static let smsCreate = 1_072, delivery = 333, check = 1_369
    static let silentCreate = 2_071, opened = 326, answered = 1_290
}

/// The floor's writes, into Tacit's schema through Tacit's SQLite writer.
final class FloorStore: Sendable {
    let database: SQLiteDatabase
    let checks = Atomic<Int>(0)

    init(path: String) async throws {
        database = try SQLiteDatabase(path: path)
        try await database.migrate(SQLiteSchema.migrator)
    }

    /// A new pending verification and its first group of events, refused while the
    /// number's newest verification is pending (Tacit's create, less everything else).
    /// The number stands in for its keyed index and its sealed copy, both shorter than
    /// Tacit's, and no write below confirms a snapshot as Tacit's do: both make the floor cheaper.
    /// `queuesSend` adds the send row a code step's start commits with it: a code is sent only
    /// from a committed row, so a crash between the commit and the provider's answer neither
    /// loses the code nor sends it twice (docs/providers.md, "Durable sends").
    func insert(_ id: String, number: String, groupBytes: Int, queuesSend: Bool) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        do {
            try await database.write { db in
                let group = try Self.group(id, groupBytes, db)
                if queuesSend { try Self.queueSend(id, at: now, db) }
                try Self.count(.start, channel: queuesSend ? "sms" : "silent_auth", at: now, db)
                try db.execute("""
                    INSERT INTO verifications (id, phone_index, phone_sealed, status, deadline, created_at, updated_at, last_seq, record, last_group)
                    SELECT \(id), \(number), \(Array(number.utf8)), 'pending', \(now + 900), \(now), \(now), 1, \(Self.filler(206)), \(group)
                    WHERE (SELECT status FROM verifications WHERE phone_index = \(number) ORDER BY rowid DESC LIMIT 1) IS NOT 'pending'
                    """)
                // Throwing undoes the group inserted above.
                guard db.changes == 1 else { throw Refused() }
            }
            return true
        } catch is Refused {
            return false
        }
    }

    private struct Refused: Error {}

    /// A change to a verification: its row rewritten and one more group of events.
    /// `settlesSend` deletes the send row whose delivery the change records, as the
    /// provider's answer to a queued code does in the same transaction.
    func change(_ id: String, finishing: Bool, groupBytes: Int, settlesSend: Bool = false,
                counting counted: Counted? = nil) async throws {
        let now = Date().timeIntervalSince1970
        let status = finishing ? "completed" : "pending"
        try await database.write { db in
            let group = try Self.group(id, groupBytes, db)
            if let counted { try Self.count(counted, channel: "sms", at: now, db) }
            if settlesSend { try db.execute("DELETE FROM send_outbox WHERE id = \(Self.sendID(id))") }
            try db.execute("""
                UPDATE verifications SET status = \(status), deadline = \(finishing ? nil : now + 900), updated_at = \(now),
                    last_seq = last_seq + 1, record = \(Self.filler(206)), last_group = \(group) WHERE id = \(id)
                """)
        }
    }

    /// What a change adds to the insights' rollups (docs/api.md#insights): Tacit writes a count
    /// with the change that counts, so the two commit together or not at all, on the row of its
    /// hour and of its day under each dimension (channel, country, prefix, and provider
    /// once one sent), merged with its batch's and naming only the columns it moves, as Tacit does.
    enum Counted {
        case start, send, silentSuccess, conversion

        var columns: [String] {
            switch self {
            case .start: ["starts"]
            case .send: ["sends"]
            case .silentSuccess: ["silent_attempts", "silent_successes"]
            case .conversion: ["conversions", "b1"]
            }
        }
    }

    private static func count(_ counted: Counted, channel: String, at now: Double, _ db: SQLiteConnection) throws {
        let hour = Int64(now / 3600) * 3600
        var keys = [("channel", channel), ("country", "GB"), ("prefix", "447700")]
        if counted != .start { keys.append(("provider", "dev")) }
        try db.accumulate(FloorRollups.self) { rollups in
            for (span, start) in [(Int64(3600), hour), (Int64(86400), hour / 86400 * 86400)] {
                for (dimension, key) in keys {
                    rollups.add(FloorRollups.Row(dimension: dimension, span: span, hour: start, key: key,
                                                 columns: counted.columns))
                }
            }
        }
    }

    private static func group(_ id: String, _ bytes: Int, _ db: SQLiteConnection) throws -> Int64 {
        try db.execute("""
            INSERT INTO event_groups (request_id, first_seq, last_seq, body, previous)
            SELECT \(id), 1, 1, \(filler(bytes)), (SELECT last_group FROM verifications WHERE id = \(id))
            """)
        return db.lastInsertRowID
    }

    /// The row a queued code is sent from: its sealed code is as long as Tacit's (six digits
    /// under AES-GCM's nonce and tag), and both of the table's indexes take an entry.
    private static func queueSend(_ id: String, at now: Double, _ db: SQLiteConnection) throws {
        try db.execute("""
            INSERT INTO send_outbox (id, request_id, step, channel, sealed_code, created_at, due_at)
            VALUES (\(sendID(id)), \(id), 0, 'sms', \(filler(34)), \(now), \(now + 10))
            """)
    }

    private static func sendID(_ id: String) -> String { "snd_" + id + "_0" }

    /// A blob of the size Tacit writes; what it holds costs SQLite nothing more.
    private static func filler(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x61, count: count) }

    /// Tacit's own ids, so rows land where Tacit's do.
    static let ids = IDGenerator.timeOrdered(prefix: "vf_")
}
