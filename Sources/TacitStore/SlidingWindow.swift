import Foundation

/// One counter's hits, as both stores keep them: a few buckets, each the hits of one
/// slice of the window (a `RateLimit.slices`th of it) and the time of its latest hit.
/// A bucket counts for as long as its latest hit is younger than the window, so every
/// hit of the last `window` seconds is always counted and no span of `window` seconds
/// admits more than `limit`, wherever it starts. The price of keeping a few buckets
/// instead of every hit is that a bucket's earlier hits may count up to one slice longer.
public struct SlidingWindow: Sendable, Equatable {
    public struct Bucket: Sendable, Equatable {
        /// When the bucket's latest hit was counted (seconds since 1970).
        public var latest: Double
        public var hits: Int
    }

    /// Oldest first.
    public private(set) var buckets: [Bucket]

    public init(buckets: [Bucket] = []) {
        self.buckets = buckets
    }

    /// The hits that still count at `at`.
    public func hits(_ limit: RateLimit, at: Date) -> Int {
        live(limit, at).reduce(0) { $0 + $1.hits }
    }

    /// What `consume` would answer at `at`, without counting.
    public func decision(_ limit: RateLimit, at: Date) -> RateDecision {
        let count = hits(limit, at: at)
        guard count >= limit.limit else { return .allowed(hits: count) }
        return .limited(retryAfter: retryAfter(limit, at: at, count: count))
    }

    /// Counts one hit at `at` unless `limit` hits already count; buckets that no longer
    /// count are dropped on the way.
    public mutating func consume(_ limit: RateLimit, at: Date) -> RateDecision {
        buckets = live(limit, at)
        if case .limited(let retryAfter) = decision(limit, at: at) { return .limited(retryAfter: retryAfter) }
        let now = at.timeIntervalSince1970
        let slice = limit.window / Double(RateLimit.slices)
        // A clock a little behind another instance's lands in the newest bucket too.
        if let last = buckets.last, (last.latest / slice).rounded(.down) >= (now / slice).rounded(.down) {
            buckets[buckets.count - 1] = Bucket(latest: max(last.latest, now), hits: last.hits + 1)
        } else {
            buckets.append(Bucket(latest: now, hits: 1))
        }
        return .allowed(hits: hits(limit, at: at))
    }

    /// When nothing counted here counts any more, so the store may forget the counter.
    public func expiry(_ limit: RateLimit) -> Date {
        Date(timeIntervalSince1970: (buckets.last?.latest ?? 0) + limit.window)
    }

    private func live(_ limit: RateLimit, _ at: Date) -> [Bucket] {
        let now = at.timeIntervalSince1970
        return buckets.filter { $0.latest + limit.window > now }
    }

    /// Whole seconds (at least 1) until enough of the oldest buckets stop counting for
    /// one more hit to fit.
    private func retryAfter(_ limit: RateLimit, at: Date, count: Int) -> Int {
        let now = at.timeIntervalSince1970
        var freed = 0
        for bucket in live(limit, at) {
            freed += bucket.hits
            if count - freed < limit.limit { return max(1, Int((bucket.latest + limit.window - now).rounded(.up))) }
        }
        return max(1, Int(limit.window.rounded(.up)))
    }
}

extension SlidingWindow {
    /// The buckets as text (`latest:hits` pairs separated by spaces), for a store column.
    public var encoded: String {
        buckets.map { "\($0.latest):\($0.hits)" }.joined(separator: " ")
    }

    /// Reads `encoded`; a bucket that doesn't parse is dropped rather than trusted.
    public init(encoded: String) {
        self.init(buckets: encoded.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let latest = Double(parts[0]), let hits = Int(parts[1]), hits > 0 else {
                return nil
            }
            return Bucket(latest: latest, hits: hits)
        })
    }
}
