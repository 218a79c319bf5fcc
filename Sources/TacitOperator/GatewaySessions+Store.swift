import Foundation

/// The operator's own memory as a ``GatewaySessionStore``: one process's sessions, the
/// check and the claim under one lock.
extension GatewaySessions: GatewaySessionStore {
    public func open(_ session: GatewaySession, id: String, now: Date) async throws {
        insert(session, id: id, now: now)
    }

    public func claim(_ id: String, now: Date,
                      accepting: @escaping @Sendable (GatewaySession) -> Bool) async throws -> GatewayClaim {
        claimIfAccepted(id, now: now, accepting: accepting)
    }
}
