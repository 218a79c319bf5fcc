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

    private struct State {
        var all: [String: Session] = [:]
        /// The size at which the next insert sweeps expired sessions out.
        var sweepAt = GatewaySessions.firstSweep
    }

    private let state = Mutex(State())
    /// Expired sessions are swept on insert once the map reaches a size, so it can't grow
    /// without bound. The next sweep waits until the map has doubled from what a sweep
    /// left (at least this many), so a map of many live sessions isn't scanned on every insert.
    static let firstSweep = 1024

    /// Opens a session for `number` and returns its id (128 random bits).
    func open(number: String, expiresAt: Date, now: Date) -> String {
        let id = Base64.urlEncode(SecureRandom.bytes(16))
        state.withLock { state in
            if state.all.count >= state.sweepAt {
                state.all = state.all.filter { $0.value.expiresAt > now }
                state.sweepAt = max(Self.firstSweep, 2 * state.all.count)
            }
            state.all[id] = Session(number: number, expiresAt: expiresAt)
        }
        return id
    }

    /// Marks the session used; says whether this was its first, timely use.
    func claim(_ id: String, now: Date) -> Claim {
        state.withLock { state in
            guard var session = state.all[id] else { return .unknown }
            if session.used { return .replayed }
            session.used = true
            state.all[id] = session
            return session.expiresAt > now ? .fresh(number: session.number) : .expired
        }
    }

    var count: Int { state.withLock { $0.all.count } }
}
