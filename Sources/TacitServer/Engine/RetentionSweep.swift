import Foundation
import TacitStore

/// Retention's part of a housekeeping round (docs/security.md#retention): provider-callback replay records
/// past their window, then verifications finished before the cutoff with everything that
/// belongs to them. Each store call is one short write of at most `batch` rows, and the
/// sweep rests between them (see `BatchPacer`), so a backlog of any size never holds the
/// store's writer for longer than one batch and leaves most of its time to creates and checks.
struct RetentionSweep: Sendable {
    let store: any RetentionStore
    let metrics: HousekeepingMetrics
    /// Rows one write deletes at most.
    var batch = 500
    var pacing = BatchPacer.defaultRest

    /// Sweeps until a call deletes less than a batch. Rows deleted are counted as each
    /// batch commits, so `/metrics` moves during a long sweep and keeps what a failed one did.
    func run(finishedBefore cutoff: Date, at now: Date) async throws {
        try await inBatches { limit in
            let deleted = try await store.sweepCallbackReplays(at: now, limit: limit)
            metrics.swept(.callbackReplays, deleted)
            return deleted
        }
        try await inBatches { limit in
            let deleted = try await store.sweepFinished(before: cutoff, limit: limit)
            metrics.swept(deleted)
            return deleted.verifications
        }
    }

    /// Calls `body` with the batch size until a call deletes fewer rows than that.
    private func inBatches(_ body: (Int) async throws -> Int) async throws {
        var pacer = BatchPacer(rest: pacing)
        while !Task.isCancelled {
            let deleted = try await pacer.timed { try await body(batch) }
            guard deleted >= batch else { return }
            await pacer.rest()
        }
    }
}
