import Foundation
import TacitCore
import TacitStore

/// Deletes what no longer counts for anything, every `interval` until cancelled:
/// rate-limit counters whose window has ended, provider-callback replay records past their
/// window, idempotency records older than their retention, and verifications finished
/// longer ago than `retention` with everything that belongs to them (SPEC §10). Without it
/// every number ever verified, and every address and key ever counted, would stay stored.
struct Housekeeper: Sendable {
    let store: any VerificationStore
    let rates: any RateLimitStore
    let clock: any TacitClock
    let interval: TimeInterval
    let idempotencyRetention: TimeInterval
    /// How long a finished verification is kept after it finished.
    var retention: TimeInterval = ServerConfiguration.defaultRetention
    /// Rows one write deletes at most.
    var batch = 500
    /// After a full batch the sweep rests this many times as long as the batch took, so a
    /// backlog takes at most about 1 / (1 + pacing) of the writer's time (see `BatchPacer`).
    var pacing = BatchPacer.defaultRest
    var metrics = HousekeepingMetrics()

    func run() async {
        while !Task.isCancelled {
            do { try await clock.sleep(until: clock.now().addingTimeInterval(interval)) } catch { return }
            await sweep()
        }
    }

    /// One round; a store that can't answer now is tried again next round. What was
    /// deleted before a failure stays deleted and counted.
    func sweep() async {
        let now = clock.now()
        do {
            metrics.swept(.rateLimits, try await rates.sweepRates(at: now))
            // An idempotency record is made with its verification, so it never outlives the
            // retention either: none is left pointing at a verification swept below.
            let idempotencyCutoff = now.addingTimeInterval(-min(idempotencyRetention, retention))
            metrics.swept(.idempotency, try await store.sweepIdempotency(createdBefore: idempotencyCutoff))
            try await inBatches { limit in
                let deleted = try await store.sweepCallbackReplays(at: now, limit: limit)
                metrics.swept(.callbackReplays, deleted)
                return deleted
            }
            try await inBatches { limit in
                let deleted = try await store.sweepFinished(before: now.addingTimeInterval(-retention), limit: limit)
                metrics.swept(deleted)
                return deleted.verifications
            }
            metrics.finishedSweep(at: now)
        } catch {
            FileHandle.standardError.write(Data("tacit: housekeeping could not finish this round (\(error)); it runs again in \(Int(interval)) s\n".utf8))
        }
    }

    /// Calls `body` with the batch size until a call deletes fewer rows than that: each call
    /// is one short write, and the writes queued between them are not held up by the rest.
    private func inBatches(_ body: (Int) async throws -> Int) async throws {
        var pacer = BatchPacer(rest: pacing)
        while !Task.isCancelled {
            let deleted = try await pacer.timed { try await body(batch) }
            guard deleted >= batch else { return }
            await pacer.rest()
        }
    }
}
