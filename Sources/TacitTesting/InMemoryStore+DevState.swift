import Foundation
import Synchronization
import TacitStore

/// `--dev`'s provider state held in memory, under the same contract as the stores'
/// tables (nothing is at rest here, so nothing is sealed).
extension InMemoryStore: DevStateStore {
    struct DevState {
        var sessions: [String: DevGatewaySession] = [:]
        var inboxes: [String: [DevInboxMessage]] = [:]
        var secrets: [String: [UInt8]] = [:]
    }

    public func openGatewaySession(id: String, _ session: DevGatewaySession) async throws {
        try devState.withLock { state in
            guard state.sessions[id] == nil else { throw StoreError.backend("gateway session id taken") }
            state.sessions[id] = session
        }
    }

    public func claimGatewaySession(
        id: String, now: Date, accepting: @escaping @Sendable (DevGatewaySession) -> Bool
    ) async throws -> DevGatewayClaim {
        devState.withLock { state in
            // The session is answered as it was found, before this claim marked it used.
            guard let session = state.sessions[id] else { return .unknown }
            guard accepting(session) else { return .refused }
            if session.used { return .replayed(session) }
            state.sessions[id]?.used = true
            return session.expiresAt > now ? .fresh(session) : .expired(session)
        }
    }

    public func sweepGatewaySessions(expiredBefore cutoff: Date) async throws -> Int {
        devState.withLock { state in
            let before = state.sessions.count
            state.sessions = state.sessions.filter { $0.value.expiresAt >= cutoff }
            return before - state.sessions.count
        }
    }

    public func appendInboxMessage(_ message: DevInboxMessage, to number: String, keeping: Int) async throws {
        devState.withLock { state in
            state.inboxes[number, default: []].append(message)
            state.inboxes[number] = Array(state.inboxes[number]!.suffix(keeping))
        }
    }

    public func inboxMessages(for number: String) async throws -> [DevInboxMessage] {
        devState.withLock { $0.inboxes[number] ?? [] }
    }

    public func devSecret(_ name: String, proposed: [UInt8]) async throws -> [UInt8] {
        devState.withLock { state in
            if let stored = state.secrets[name] { return stored }
            state.secrets[name] = proposed
            return proposed
        }
    }
}
