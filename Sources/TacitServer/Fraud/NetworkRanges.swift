/// The mobile network an application's receipts last named for each number range
/// (docs/fraud.md#mobile-networks): the range is the deepest prefix the ledger works out for a
/// number, the network its ledger key (`net:23410`). Bounded: once `limit` ranges are held, the
/// one learnt first is forgotten for each new one, so an attack spread over many ranges can't
/// grow it without end. Kept in memory only, by the instance that received the receipts.
struct NetworkRanges: Sendable {
    /// How many ranges one application's map holds.
    static let limit = 20_000

    private var networks: [String: String] = [:]
    /// The ranges held, in the order they were first learnt: the oldest is forgotten first.
    private var order: [String] = []
    private var next = 0
    private let limit: Int

    init(limit: Int = Self.limit) {
        self.limit = max(1, limit)
    }

    /// Remembers that a receipt for a number in `range` named `network` (a ledger key).
    mutating func learn(_ network: String, for range: String) {
        guard networks.updateValue(network, forKey: range) == nil else { return }
        if order.count < limit {
            order.append(range)
        } else {
            networks[order[next]] = nil
            order[next] = range
            next = (next + 1) % limit
        }
    }

    /// The network last named for `range`, as its ledger key.
    func network(of range: String) -> String? { networks[range] }

    var count: Int { networks.count }
}
