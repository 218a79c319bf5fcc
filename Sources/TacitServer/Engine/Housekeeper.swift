import Foundation
import TacitCore
import TacitStore

/// Deletes what no longer counts for anything, every `interval` until cancelled:
/// rate-limit counters whose window has ended, and idempotency records older than their
/// retention. Without it every number, address and key ever counted, and every key ever
/// sent, would stay stored.
struct Housekeeper: Sendable {
    let store: any VerificationStore
    let rates: any RateLimitStore
    let clock: any TacitClock
    let interval: TimeInterval
    let idempotencyRetention: TimeInterval

    func run() async {
        while !Task.isCancelled {
            do { try await clock.sleep(until: clock.now().addingTimeInterval(interval)) } catch { return }
            await sweep()
        }
    }

    /// One round; a store that can't answer now is tried again next round.
    func sweep() async {
        let now = clock.now()
        do {
            _ = try await rates.sweepRates(at: now)
            _ = try await store.sweepIdempotency(createdBefore: now.addingTimeInterval(-idempotencyRetention))
        } catch {
            FileHandle.standardError.write(Data("tacit: housekeeping could not finish this round (\(error)); it runs again in \(Int(interval)) s\n".utf8))
        }
    }
}
