import Foundation
import TacitStore

/// The prefix counters and blocks in this process's memory.
extension InMemoryStore: PrefixLedgerStore {
    public func flushPrefixCounts(_ deltas: [PrefixCount], windowStart: Int64, pruneBefore: Int64?,
                                  blocksSince: Date, now: Date) async throws -> PrefixLedgerSnapshot {
        try await heldPrefixLedger.flushPrefixCounts(deltas, windowStart: windowStart, pruneBefore: pruneBefore,
                                                     blocksSince: blocksSince, now: now)
    }

    public func setPrefixBlock(_ block: PrefixBlock) async throws {
        try await heldPrefixLedger.setPrefixBlock(block)
    }

    public func prefixBlocks(application: String) async throws -> [PrefixBlock] {
        try await heldPrefixLedger.prefixBlocks(application: application)
    }

    public func unblockPrefix(application: String, prefix: String, now: Date, pardonUntil: Date) async throws -> Bool {
        try await heldPrefixLedger.unblockPrefix(application: application, prefix: prefix, now: now,
                                                 pardonUntil: pardonUntil)
    }
}
