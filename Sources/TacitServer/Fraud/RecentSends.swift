/// An application's latest sends made by this instance, as their prefixes, and how many of
/// those not converted yet fall in each prefix (docs/fraud.md#prefix-blocks): the share a prefix
/// takes of what the application sends now and nobody converts. A pumped range takes a large
/// share at once; a country's real users keep their usual small one, smaller still as they type
/// their codes. Kept in memory only: a second instance judges on its own share, as it judges the
/// counts it has not read back yet.
struct RecentSends: Sendable {
    private struct Entry {
        /// The number the send went to, so its conversion finds it; never written anywhere.
        var number: String
        var prefixes: [String]
        var converted = false
    }

    private var ring: [Entry] = []
    private var next = 0
    /// The held sends not converted, in all and under each prefix.
    private var unconverted = 0
    private var counts: [String: Int] = [:]

    /// Adds one send to `number` under its `prefixes`, and forgets the oldest send once
    /// `PrefixRule.recentSends` are held.
    mutating func add(_ number: String, prefixes: [String]) {
        guard !prefixes.isEmpty else { return }
        let entry = Entry(number: number, prefixes: prefixes)
        if ring.count < PrefixRule.recentSends {
            ring.append(entry)
        } else {
            uncount(ring[next])
            ring[next] = entry
            next = (next + 1) % PrefixRule.recentSends
        }
        unconverted += 1
        for prefix in prefixes { counts[prefix, default: 0] += 1 }
    }

    /// `number` converted: its held sends (a resend's too) no longer count toward any share.
    mutating func converted(_ number: String) {
        for index in ring.indices where ring[index].number == number && !ring[index].converted {
            uncount(ring[index])
            ring[index].converted = true
        }
    }

    /// The share of the held sends not converted that falls under `prefix`; 1 while none is
    /// held, 0 once every held send converted.
    func share(of prefix: String) -> Double {
        guard !ring.isEmpty else { return 1 }
        return unconverted == 0 ? 0 : Double(counts[prefix] ?? 0) / Double(unconverted)
    }

    private mutating func uncount(_ entry: Entry) {
        guard !entry.converted else { return }
        unconverted -= 1
        for prefix in entry.prefixes {
            counts[prefix] = (counts[prefix] ?? 1) - 1
            if counts[prefix] == 0 { counts[prefix] = nil }
        }
    }
}
