import Foundation
import Synchronization
import TacitCrypto

/// The checks the operator has issued and not yet seen used: the operator's own
/// memory, as a carrier keeps its in-flight authorisations. Each is single-use.
final class GatewaySessions: Sendable {
    struct Session: Sendable {
        var number: String
        var expiresAt: Date
        var used = false
    }

    enum Claim: Equatable {
        case fresh(number: String)
        case replayed
        case expired
        case unknown
    }

    private let sessions = Mutex<[String: Session]>([:])
    /// Past this size, expired sessions are swept on insert, so the map can't grow without bound.
    private static let sweepThreshold = 1024

    /// Opens a session for `number` and returns its id (128 random bits).
    func open(number: String, expiresAt: Date, now: Date) -> String {
        let id = Base64.urlEncode(SecureRandom.bytes(16))
        sessions.withLock { all in
            if all.count >= Self.sweepThreshold { all = all.filter { $0.value.expiresAt > now } }
            all[id] = Session(number: number, expiresAt: expiresAt)
        }
        return id
    }

    /// Marks the session used; says whether this was its first, timely use.
    func claim(_ id: String, now: Date) -> Claim {
        sessions.withLock { all in
            guard var session = all[id] else { return .unknown }
            if session.used { return .replayed }
            session.used = true
            all[id] = session
            return session.expiresAt > now ? .fresh(number: session.number) : .expired
        }
    }

    var count: Int { sessions.withLock { $0.count } }
}
