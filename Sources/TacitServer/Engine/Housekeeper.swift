import Foundation
import TacitCore
import TacitStore

/// Deletes what no longer counts for anything, every `interval` until cancelled:
/// rate-limit counters whose window has ended, provider-callback replay records past their
/// window, idempotency records older than their retention, and verifications finished
/// longer ago than `retention` with everything that belongs to them (docs/security.md#retention). Without it
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
    /// How long the retention sweep rests after a full batch, in batch-times (see `BatchPacer`).
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
            let retained = RetentionSweep(store: store, metrics: metrics, batch: batch, pacing: pacing)
            try await retained.run(finishedBefore: now.addingTimeInterval(-retention), at: now)
            metrics.finishedSweep(at: now)
        } catch {
            FileHandle.standardError.write(Data(("tacit: housekeeping could not finish this round (\(error));"
                                                 + " it runs again in \(Int(interval)) s\n").utf8))
        }
    }
}
