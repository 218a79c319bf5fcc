import Foundation
import Synchronization
import TacitCrypto

/// The checks the operator has issued and not yet seen used: the operator's own
/// memory, as a carrier keeps its in-flight authorisations. Each is single-use.
final class GatewaySessions: Sendable {
    struct Session: Sendable {
        var number: String
        /// The only place the gateway sends this session's verdict: the callback the
        /// caller registered when it opened the check, never one the link names later.
        var redirectURI: String?
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

    /// Opens a session for `number` whose verdict may go only to `redirectURI`, and
    /// returns its id (128 random bits).
    func open(number: String, redirectURI: String? = nil, expiresAt: Date, now: Date) -> String {
        let id = Base64.urlEncode(SecureRandom.bytes(16))
        state.withLock { state in
            if state.all.count >= state.sweepAt {
                state.all = state.all.filter { $0.value.expiresAt > now }
                state.sweepAt = max(Self.firstSweep, 2 * state.all.count)
            }
            state.all[id] = Session(number: number, redirectURI: redirectURI, expiresAt: expiresAt)
        }
        return id
    }

    /// The callback registered for a session, without claiming it: the gateway checks
    /// the link's `redirect_uri` against it before it spends the session on anything.
    func peek(_ id: String) -> Session? {
        state.withLock { $0.all[id] }
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
