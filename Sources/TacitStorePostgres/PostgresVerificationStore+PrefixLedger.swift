import Foundation
import TacitStore

/// The prefix counters and blocks, as the SQLite store keeps them, shared by every instance
/// (docs/fraud.md#prefix-blocks). A flush is one transaction: its upserts are queued with the
/// sums' read, in the order of their keys, so two instances flushing the same rows at once
/// take their locks in the same order and never deadlock.
extension PostgresVerificationStore: PrefixLedgerStore {
    public func flushPrefixCounts(_ deltas: [PrefixCount], windowStart: Int64, pruneBefore: Int64?,
                                  blocksSince: Date, now: Date) async throws -> PrefixLedgerSnapshot {
        let ordered = deltas.sorted {
            ($0.applicationId, $0.prefix, $0.bucket) < ($1.applicationId, $1.prefix, $1.bucket)
        }
        return try await write { db in
            // Counters that only judge: a crash may lose their last second, as the conversion
            // windows may, so the commit doesn't wait for the WAL flush.
            try db.queue(Self.asynchronousCommit)
            for delta in ordered {
                try db.queue("""
                    INSERT INTO prefix_counts (application_id, prefix, bucket, sends, conversions)
                    VALUES (\(delta.applicationId), \(delta.prefix), \(delta.bucket)::bigint,
                        \(delta.sends)::integer, \(delta.conversions)::integer)
                    ON CONFLICT (application_id, prefix, bucket) DO UPDATE SET
                        sends = prefix_counts.sends + excluded.sends,
                        conversions = prefix_counts.conversions + excluded.conversions
                    """)
            }
            if let pruneBefore { try db.queue("DELETE FROM prefix_counts WHERE bucket < \(pruneBefore)::bigint") }
            let totals = try db.query("""
                SELECT application_id, prefix, SUM(sends) AS sends, SUM(conversions) AS conversions
                FROM prefix_counts WHERE bucket >= \(windowStart)::bigint GROUP BY application_id, prefix
                """).map { row in
                PrefixCount(applicationId: try row.string("application_id"), prefix: try row.string("prefix"),
                            bucket: 0, sends: try row.int("sends"), conversions: try row.int("conversions"))
            }
            let blocks = try db.query("""
                SELECT * FROM prefix_blocks WHERE blocked_until > \(blocksSince.timeIntervalSince1970)::float8
                    OR pardoned_until > \(now.timeIntervalSince1970)::float8
                """).map(Self.prefixBlock)
            return PrefixLedgerSnapshot(totals: totals, blocks: blocks)
        }
    }

    public func setPrefixBlock(_ block: PrefixBlock) async throws {
        try await write { db in
            try db.execute("""
                INSERT INTO prefix_blocks (application_id, prefix, rule, blocked_at, blocked_until, strikes, sends,
                    conversions, baseline, pardoned_until)
                VALUES (\(block.applicationId), \(block.prefix), \(block.rule),
                    \(block.blockedAt.timeIntervalSince1970)::float8,
                    \(block.blockedUntil.timeIntervalSince1970)::float8,
                    \(block.strikes)::integer, \(block.sends)::integer, \(block.conversions)::integer,
                    \(block.baseline)::float8, \(block.pardonedUntil?.timeIntervalSince1970)::float8)
                ON CONFLICT (application_id, prefix) DO UPDATE SET rule = excluded.rule,
                    blocked_at = excluded.blocked_at, blocked_until = excluded.blocked_until,
                    strikes = excluded.strikes, sends = excluded.sends, conversions = excluded.conversions,
                    baseline = excluded.baseline, pardoned_until = excluded.pardoned_until
                """)
        }
    }

    public func prefixBlocks(application: String) async throws -> [PrefixBlock] {
        try await read { db in
            try db.query("SELECT * FROM prefix_blocks WHERE application_id = \(application) ORDER BY prefix")
                .map(Self.prefixBlock)
        }
    }

    public func unblockPrefix(application: String, prefix: String, now: Date, pardonUntil: Date) async throws -> Bool {
        let time = now.timeIntervalSince1970
        return try await read { db in
            try db.execute("""
                UPDATE prefix_blocks SET blocked_until = \(time)::float8, strikes = 0,
                    pardoned_until = \(pardonUntil.timeIntervalSince1970)::float8
                WHERE application_id = \(application) AND prefix = \(prefix) AND blocked_until > \(time)::float8
                """) == 1
        }
    }

    static func prefixBlock(_ row: PostgresRow) throws -> PrefixBlock {
        PrefixBlock(applicationId: try row.string("application_id"), prefix: try row.string("prefix"),
                    rule: try row.string("rule"), blockedAt: try row.date("blocked_at"),
                    blockedUntil: try row.date("blocked_until"), strikes: try row.int("strikes"),
                    sends: try row.int("sends"), conversions: try row.int("conversions"),
                    baseline: try row.optionalDouble("baseline"), pardonedUntil: try row.optionalDate("pardoned_until"))
    }
}
