import Foundation
import TacitOperator
import TacitProviderKit

/// The virtual operator's verdicts: its gateway sends the device back with a signed
/// ``OperatorAnswer`` in the query, checked here with the key the operator signs with.
struct OperatorAnswerReader: SilentVerdictReader {
    let keys: any OperatorKeySource

    init(key: [UInt8]) { keys = FixedOperatorKey(key) }

    /// Reads with the key several instances share through their store.
    init(keys: any OperatorKeySource) { self.keys = keys }

    /// The fixed key answers are checked with, nil when it comes from a store.
    var key: [UInt8]? { (keys as? FixedOperatorKey)?.key }

    func verdict(for callback: SilentCallback) async -> SilentVerdict? {
        guard let key = try? await keys.signingKey(),
              let answer = OperatorAnswer(query: callback.query, key: key) else { return nil }
        return SilentVerdict(result: Self.result(answer.result), state: answer.state, session: answer.session,
                             expires: answer.expires)
    }

    static func result(_ result: OperatorAnswer.Result) -> SilentVerdict.Result {
        switch result {
        case .match: return .match
        case .noMatch: return .noMatch
        case .notCellular: return .notCellular
        case .replayed: return .replayed
        case .expired: return .expired
        }
    }
}
