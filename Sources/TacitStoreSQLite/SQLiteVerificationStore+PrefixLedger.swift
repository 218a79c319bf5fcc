import Foundation
import TacitStore

/// The prefix counters in `prefix_counts`, one row per application, prefix and bucket, and the
/// blocks in `prefix_blocks` (docs/fraud.md#prefix-blocks).
extension SQLiteVerificationStore: PrefixLedgerStore {
    public func flushPrefixCounts(_ deltas: [PrefixCount], windowStart: Int64, pruneBefore: Int64?,
                                  blocksSince: Date, now: Date) async throws -> PrefixLedgerSnapshot {
        try await database.write { db in
            for delta in deltas {
                try db.execute("""
                    INSERT INTO prefix_counts (application_id, prefix, bucket, sends, conversions)
                    VALUES (\(delta.applicationId), \(delta.prefix), \(delta.bucket), \(delta.sends),
                        \(delta.conversions))
                    ON CONFLICT (application_id, prefix, bucket) DO UPDATE SET
                        sends = sends + excluded.sends, conversions = conversions + excluded.conversions
                    """)
            }
            if let pruneBefore { try db.execute("DELETE FROM prefix_counts WHERE bucket < \(pruneBefore)") }
            let totals = try db.query("""
                SELECT application_id, prefix, SUM(sends) AS sends, SUM(conversions) AS conversions
                FROM prefix_counts WHERE bucket >= \(windowStart) GROUP BY application_id, prefix
                """).map { row in
                PrefixCount(applicationId: try row.string("application_id"), prefix: try row.string("prefix"),
                            bucket: 0, sends: try row.int("sends"), conversions: try row.int("conversions"))
            }
            let blocks = try db.query("""
                SELECT * FROM prefix_blocks WHERE blocked_until > \(blocksSince.timeIntervalSince1970)
                    OR pardoned_until > \(now.timeIntervalSince1970)
                """).map(Self.prefixBlock)
            return PrefixLedgerSnapshot(totals: totals, blocks: blocks)
        }
    }

    public func setPrefixBlock(_ block: PrefixBlock) async throws {
        try await database.write { db in
            try db.execute("""
                INSERT INTO prefix_blocks (application_id, prefix, rule, blocked_at, blocked_until, strikes, sends,
                    conversions, baseline, pardoned_until)
                VALUES (\(block.applicationId), \(block.prefix), \(block.rule),
                    \(block.blockedAt.timeIntervalSince1970),
                    \(block.blockedUntil.timeIntervalSince1970), \(block.strikes), \(block.sends),
                    \(block.conversions), \(block.baseline), \(block.pardonedUntil?.timeIntervalSince1970))
                ON CONFLICT (application_id, prefix) DO UPDATE SET rule = excluded.rule,
                    blocked_at = excluded.blocked_at, blocked_until = excluded.blocked_until,
                    strikes = excluded.strikes, sends = excluded.sends, conversions = excluded.conversions,
                    baseline = excluded.baseline, pardoned_until = excluded.pardoned_until
                """)
        }
    }

    public func prefixBlocks(application: String) async throws -> [PrefixBlock] {
        try await database.read { db in
            try db.query("SELECT * FROM prefix_blocks WHERE application_id = \(application) ORDER BY prefix")
                .map(Self.prefixBlock)
        }
    }

    public func unblockPrefix(application: String, prefix: String, now: Date, pardonUntil: Date) async throws -> Bool {
        let time = now.timeIntervalSince1970
        return try await database.write { db in
            try db.execute("""
                UPDATE prefix_blocks SET blocked_until = \(time), strikes = 0,
                    pardoned_until = \(pardonUntil.timeIntervalSince1970)
                WHERE application_id = \(application) AND prefix = \(prefix) AND blocked_until > \(time)
                """)
            return db.changes == 1
        }
    }

    static func prefixBlock(_ row: Row) throws -> PrefixBlock {
        PrefixBlock(applicationId: try row.string("application_id"), prefix: try row.string("prefix"),
                    rule: try row.string("rule"),
                    blockedAt: Date(timeIntervalSince1970: try row.double("blocked_at")),
                    blockedUntil: Date(timeIntervalSince1970: try row.double("blocked_until")),
                    strikes: try row.int("strikes"), sends: try row.int("sends"),
                    conversions: try row.int("conversions"), baseline: try row.optionalDouble("baseline"),
                    pardonedUntil: try row.optionalDouble("pardoned_until").map(Date.init(timeIntervalSince1970:)))
    }
}
