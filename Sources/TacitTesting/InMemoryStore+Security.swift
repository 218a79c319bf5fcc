import Foundation
import Synchronization
import TacitStore

/// API keys and rate-limit counters held in memory, with the same contract as the SQLite store.
extension InMemoryStore: KeyStore, RateLimitStore {
    struct SecurityState {
        var keys: [(key: APIKey, hash: [UInt8])] = []
        var counters: [String: (windowStart: Date, hits: Int, ends: Date)] = [:]
    }

    public func insertKey(_ key: APIKey, hash: [UInt8]) async throws {
        try security.withLock { state in
            if state.keys.contains(where: { $0.key.id == key.id || $0.hash == hash }) { throw StoreError.backend("duplicate key") }
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
        let start = limit.windowStart(at)
        return security.withLock { state in
            var counter = state.counters[key] ?? (start, 0, limit.windowEnd(at))
            if counter.windowStart != start { counter = (start, 0, limit.windowEnd(at)) }
            guard counter.hits < limit.limit else { return .limited(retryAfter: limit.retryAfter(at)) }
            counter.hits += 1
            state.counters[key] = counter
            return .allowed(hits: counter.hits)
        }
    }

    public func hits(_ key: String, _ limit: RateLimit, at: Date) async throws -> Int {
        let start = limit.windowStart(at)
        return security.withLock { state in
            guard let counter = state.counters[key], counter.windowStart == start else { return 0 }
            return counter.hits
        }
    }

    public func resetRate(_ key: String) async throws {
        _ = security.withLock { $0.counters.removeValue(forKey: key) }
    }

    public func sweepRates(at: Date) async throws -> Int {
        security.withLock { state in
            let before = state.counters.count
            state.counters = state.counters.filter { $0.value.ends > at }
            return before - state.counters.count
        }
    }
}
