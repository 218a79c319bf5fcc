import Foundation
import Synchronization
import TacitCrypto

/// The checks the operator has issued and not yet seen used: the operator's own
/// memory, as a carrier keeps its in-flight authorisations. Each is single-use.
public final class GatewaySessions: Sendable {
    typealias Session = GatewaySession

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

    public init() {}

    /// Opens a session for `number` whose verdict may go only to `redirectURI`, and
    /// returns its id (128 random bits).
    func open(number: String, redirectURI: String? = nil, expiresAt: Date, now: Date) -> String {
        let id = Base64.urlEncode(SecureRandom.bytes(16))
        insert(Session(number: number, redirectURI: redirectURI, expiresAt: expiresAt), id: id, now: now)
        return id
    }

    func insert(_ session: Session, id: String, now: Date) {
        state.withLock { state in
            if state.all.count >= state.sweepAt {
                state.all = state.all.filter { $0.value.expiresAt > now }
                state.sweepAt = max(Self.firstSweep, 2 * state.all.count)
            }
            state.all[id] = session
        }
    }

    /// Marks the session used; says whether this was its first, timely use.
    func claim(_ id: String, now: Date) -> Claim {
        switch claimIfAccepted(id, now: now, accepting: { _ in true }) {
        case .unknown, .refused: return .unknown
        case .replayed: return .replayed
        case .expired: return .expired
        case .fresh(let session): return .fresh(number: session.number)
        }
    }

    /// Claims the session unless `accepting` refuses it (the gateway checks the link's
    /// `redirect_uri` against the registered one before it spends the session).
    func claimIfAccepted(_ id: String, now: Date, accepting: (Session) -> Bool) -> GatewayClaim {
        state.withLock { state in
            guard var session = state.all[id] else { return .unknown }
            guard accepting(session) else { return .refused }
            if session.used { return .replayed(session) }
            session.used = true
            state.all[id] = session
            return session.expiresAt > now ? .fresh(session) : .expired(session)
        }
    }

    var count: Int { state.withLock { $0.all.count } }
}
