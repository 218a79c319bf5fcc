import Foundation
import Synchronization
import TacitServer

/// The `jti`s of the Vonage JWTs accepted lately, so a token is good once. Bounded in
/// memory: an entry is kept only while its token could still pass the `iat` window, and
/// when an application's share is full its oldest entry goes and raises a floor instead,
/// below which every token is refused as stale. So a replay is refused either way,
/// whatever the load; at worst, under a flood, a token has to be fresher than the window says.
///
/// Each application has a share of its own (docs/security.md, "Second adversarial pass"):
/// an `iat` may lie up to the JWT clock skew ahead, so a flood of one application's tokens
/// dated ahead raises the floor ahead of real time, and with one shared floor every other
/// application's fresh tokens would then fail. The floor only ever refuses its own tokens.
final class JTIReplayCache: Sendable {
    /// Entries kept per application.
    let capacity: Int
    let window: TimeInterval

    private struct Share {
        var seen: [String: Date] = [:]
        /// Issue times, oldest first, with their jti (tokens mostly arrive in order).
        var order: [(Date, String)] = []
        var head = 0
        var floor = Date.distantPast
    }
    private let shares = Mutex([String: Share]())

    init(capacity: Int = 100_000, window: TimeInterval) {
        self.capacity = capacity
        self.window = window
    }

    /// Records `jti` of `application`'s token issued at `issuedAt`; false when it was seen
    /// already or is not newer than that application's floor.
    func admit(_ jti: String, application: String, issuedAt: Date, now: Date) -> Bool {
        shares.withLock { shares in
            let stale = now.addingTimeInterval(-window - 60)
            var share = shares.removeValue(forKey: application) ?? Share()
            let admitted = admit(jti, issuedAt: issuedAt, stale: stale, into: &share)
            // A share that holds nothing and whose floor refuses nothing fresh is forgotten.
            if !share.seen.isEmpty || share.floor >= stale { shares[application] = share }
            return admitted
        }
    }

    private func admit(_ jti: String, issuedAt: Date, stale: Date, into share: inout Share) -> Bool {
        expire(&share, before: stale)
        guard issuedAt > share.floor, share.seen[jti] == nil else { return false }
        if share.seen.count >= capacity, share.head < share.order.count {
            let (oldest, id) = share.order[share.head]
            share.head += 1
            share.seen[id] = nil
            share.floor = max(share.floor, oldest)
        }
        share.seen[jti] = issuedAt
        share.order.append((issuedAt, jti))
        return true
    }

    /// Entries kept, over every application.
    var count: Int { shares.withLock { $0.values.reduce(0) { $0 + $1.seen.count } } }

    private func expire(_ share: inout Share, before limit: Date) {
        while share.head < share.order.count, share.order[share.head].0 < limit {
            let id = share.order[share.head].1
            if share.seen[id] == share.order[share.head].0 { share.seen[id] = nil }
            share.head += 1
        }
        if share.head > 1024, share.head * 2 > share.order.count {
            share.order.removeFirst(share.head)
            share.head = 0
        }
    }
}
