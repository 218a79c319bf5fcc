import Foundation
import Synchronization

/// Where the prefix counters and blocks live (docs/fraud.md#prefix-blocks), shared by every
/// instance on the store. Each instance counts in memory and calls `flushPrefixCounts` about
/// once a second, so a start costs no store round trip.
public protocol PrefixLedgerStore: Sendable {
    /// In one transaction: adds `deltas` to their buckets, drops buckets before `pruneBefore`
    /// when given, and reads back the sums of every prefix over buckets from `windowStart` on,
    /// and the blocks that end after `blocksSince` or are pardoned after `now`.
    func flushPrefixCounts(_ deltas: [PrefixCount], windowStart: Int64, pruneBefore: Int64?,
                           blocksSince: Date, now: Date) async throws -> PrefixLedgerSnapshot
    /// Adds or replaces the application's block of `block.prefix`.
    func setPrefixBlock(_ block: PrefixBlock) async throws
    /// Every block row of the application, ended ones too, by prefix.
    func prefixBlocks(application: String) async throws -> [PrefixBlock]
    /// Ends the application's block of `prefix` at `now`, starts its count of repeats afresh and
    /// keeps the rule off it until `pardonUntil`; false when the prefix was not blocked.
    func unblockPrefix(application: String, prefix: String, now: Date, pardonUntil: Date) async throws -> Bool
}

/// Counters and blocks in this process's memory: the in-memory store's, and a store's that keeps none.
public final class ProcessPrefixLedger: PrefixLedgerStore {
    private struct Key: Hashable {
        let application: String, prefix: String, bucket: Int64
    }
    private let counts = Mutex<[Key: PrefixCount]>([:])
    private let blocks = Mutex<[String: PrefixBlock]>([:])

    public init() {}

    public func flushPrefixCounts(_ deltas: [PrefixCount], windowStart: Int64, pruneBefore: Int64?,
                                  blocksSince: Date, now: Date) async throws -> PrefixLedgerSnapshot {
        let totals = counts.withLock { counts -> [PrefixCount] in
            for delta in deltas {
                let key = Key(application: delta.applicationId, prefix: delta.prefix, bucket: delta.bucket)
                var row = counts[key] ?? PrefixCount(applicationId: delta.applicationId, prefix: delta.prefix,
                                                     bucket: delta.bucket)
                row.sends += delta.sends
                row.conversions += delta.conversions
                counts[key] = row
            }
            if let pruneBefore { counts = counts.filter { $0.key.bucket >= pruneBefore } }
            var sums: [Key: PrefixCount] = [:]
            for row in counts.values where row.bucket >= windowStart {
                let key = Key(application: row.applicationId, prefix: row.prefix, bucket: 0)
                var sum = sums[key] ?? PrefixCount(applicationId: row.applicationId, prefix: row.prefix, bucket: 0)
                sum.sends += row.sends
                sum.conversions += row.conversions
                sums[key] = sum
            }
            return Array(sums.values)
        }
        let kept = blocks.withLock { blocks in
            blocks.values.filter { $0.blockedUntil > blocksSince || ($0.pardonedUntil ?? .distantPast) > now }
        }
        return PrefixLedgerSnapshot(totals: totals, blocks: kept)
    }

    public func setPrefixBlock(_ block: PrefixBlock) async throws {
        blocks.withLock { $0[block.applicationId + " " + block.prefix] = block }
    }

    public func prefixBlocks(application: String) async throws -> [PrefixBlock] {
        blocks.withLock { blocks in
            blocks.values.filter { $0.applicationId == application }.sorted { $0.prefix < $1.prefix }
        }
    }

    public func unblockPrefix(application: String, prefix: String, now: Date, pardonUntil: Date) async throws -> Bool {
        blocks.withLock { blocks in
            guard var block = blocks[application + " " + prefix], block.isActive(at: now) else { return false }
            block.blockedUntil = now
            block.strikes = 0
            block.pardonedUntil = pardonUntil
            blocks[application + " " + prefix] = block
            return true
        }
    }
}
