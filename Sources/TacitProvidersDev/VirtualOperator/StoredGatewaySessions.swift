import Foundation
import Synchronization
import TacitOperator
import TacitStore

/// The virtual operator's gateway sessions in the store, so a check opened through one
/// instance is claimed through any other on one database (docs/postgres.md#--dev-on-several-instances). Each open and
/// each claim is one store call; expired sessions are swept every so many opens rather
/// than on each, so the silent flow's hot path pays for no sweep.
final class StoredGatewaySessions: GatewaySessionStore {
    let store: any DevStateStore
    private let opens = Atomic<Int>(0)
    /// Opens between sweeps.
    static let sweepEvery = 1024
    /// How long an expired session is kept: its late claim still answers `expired`
    /// rather than `unknown` for this long.
    static let keptAfterExpiry: TimeInterval = 600

    init(store: any DevStateStore) { self.store = store }

    func open(_ session: GatewaySession, id: String, now: Date) async throws {
        try await store.openGatewaySession(id: id, DevGatewaySession(number: session.number,
                                                                     redirectURI: session.redirectURI,
                                                                     expiresAt: session.expiresAt, used: session.used))
        if opens.add(1, ordering: .relaxed).newValue.isMultiple(of: Self.sweepEvery) {
            _ = try? await store.sweepGatewaySessions(expiredBefore: now.addingTimeInterval(-Self.keptAfterExpiry))
        }
    }

    func claim(
        _ id: String, now: Date, accepting: @escaping @Sendable (GatewaySession) -> Bool
    ) async throws -> GatewayClaim {
        switch try await store.claimGatewaySession(id: id, now: now, accepting: { accepting(Self.session($0)) }) {
        case .unknown: return .unknown
        case .refused: return .refused
        case .replayed(let stored): return .replayed(Self.session(stored))
        case .expired(let stored): return .expired(Self.session(stored))
        case .fresh(let stored): return .fresh(Self.session(stored))
        }
    }

    static func session(_ stored: DevGatewaySession) -> GatewaySession {
        GatewaySession(number: stored.number, redirectURI: stored.redirectURI, expiresAt: stored.expiresAt,
                       used: stored.used)
    }
}
