import Foundation
import Synchronization
import TacitStore

/// API keys held in memory, and rate-limit counters through `ProcessRateLimits`, with the
/// same contract as the SQLite store.
extension InMemoryStore: KeyStore, RateLimitStore {
    struct SecurityState {
        var keys: [(key: APIKey, hash: [UInt8])] = []
        /// Applications with their faces' records (see `InMemoryStore+Applications.swift`),
        /// starting with the default one, as a migrated database does.
        var applications: [(application: Application, credentials: [FaceCredential])] = [
            (Application(id: Application.defaultID, name: Application.defaultID,
                         createdAt: Date(timeIntervalSince1970: 0)), []),
        ]
    }

    public func insertKey(_ key: APIKey, hash: [UInt8]) async throws {
        try security.withLock { state in
            if state.keys.contains(where: { $0.key.id == key.id || $0.hash == hash }) {
                throw StoreError.backend("duplicate key")
            }
            state.keys.append((key, hash))
        }
    }

    public func key(hash: [UInt8]) async throws -> APIKey? {
        security.withLock { $0.keys.first { $0.hash == hash }?.key }
    }

    public func keys() async throws -> [APIKey] {
        security.withLock { $0.keys.map(\.key) }
    }

    public func revokeKey(id: String, at: Date) async throws -> Bool {
        security.withLock { state in
            guard let index = state.keys.firstIndex(where: { $0.key.id == id }) else { return false }
            state.keys[index].key.revokedAt = state.keys[index].key.revokedAt ?? at
            return true
        }
    }

    public func touchKey(id: String, at: Date) async throws {
        security.withLock { state in
            if let index = state.keys.firstIndex(where: { $0.key.id == id }) { state.keys[index].key.lastUsedAt = at }
        }
    }

    public func consume(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        try await rateLimits.consume(key, limit, at: at)
    }

    public func peek(_ key: String, _ limit: RateLimit, at: Date) async throws -> RateDecision {
        try await rateLimits.peek(key, limit, at: at)
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        try await rateLimits.hits(key, limit, at: at)
    }

    public func resetRate(_ key: String) async throws {
        try await rateLimits.resetRate(key)
    }

    public func sweepRates(at: Date) async throws -> Int {
        try await rateLimits.sweepRates(at: at)
    }
}
