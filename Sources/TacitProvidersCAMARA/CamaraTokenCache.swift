import Foundation
import TacitCore
import TacitCrypto

/// CIBA access tokens, kept per purpose (scope) and number until shortly before they
/// expire, so a burst of starts for one number asks the operator once. Numbers are keyed
/// by their SHA-256, so the table holds none in the clear.
actor CamaraTokenCache {
    /// A token this close to its expiry is not handed out: the call it is for takes time too.
    static let margin: TimeInterval = 30

    private let clock: any TacitClock
    private var tokens: [String: (token: String, until: Date)] = [:]

    init(clock: any TacitClock) {
        self.clock = clock
    }

    static func key(scope: String, phoneNumber: String) -> String {
        scope + " " + Hex.encode(SHA256.hash(Array(phoneNumber.utf8)))
    }

    func token(for key: String) -> String? {
        guard let entry = tokens[key] else { return nil }
        guard entry.until > clock.now() else {
            tokens[key] = nil
            return nil
        }
        return entry.token
    }

    /// Keeps `token` for `expiresIn` seconds less the margin; a token without a lifetime is not kept.
    func keep(_ token: String, expiresIn: Int?, for key: String) {
        let now = clock.now()
        tokens = tokens.filter { $0.value.until > now }
        guard let expiresIn, TimeInterval(expiresIn) > Self.margin else { return }
        tokens[key] = (token, now.addingTimeInterval(TimeInterval(expiresIn) - Self.margin))
    }

    func forget(_ key: String) {
        tokens[key] = nil
    }
}
