/// An application's latest sends made by this instance, as their prefixes, with how many of
/// them fall in each prefix (docs/fraud.md#prefix-blocks): the share of what the application
/// sends now that a prefix takes. A pumped range takes a large share at once; a country's real
/// users keep their usual small one. Kept in memory only: a second instance judges on its own
/// share, as it judges the counts it has not read back yet.
struct RecentSends: Sendable {
    private var ring: [[String]] = []
    private var next = 0
    private var counts: [String: Int] = [:]

    /// Adds one send's prefixes, and forgets the oldest send once `PrefixRule.recentSends` are held.
    mutating func add(_ prefixes: [String]) {
        guard !prefixes.isEmpty else { return }
        if ring.count < PrefixRule.recentSends {
            ring.append(prefixes)
        } else {
            for prefix in ring[next] {
                counts[prefix] = (counts[prefix] ?? 1) - 1
                if counts[prefix] == 0 { counts[prefix] = nil }
            }
            ring[next] = prefixes
            next = (next + 1) % PrefixRule.recentSends
        }
        for prefix in prefixes { counts[prefix, default: 0] += 1 }
    }

    /// The share of the held sends under `prefix`; 1 while none is held.
    func share(of prefix: String) -> Double {
        ring.isEmpty ? 1 : Double(counts[prefix] ?? 0) / Double(ring.count)
    }
}
