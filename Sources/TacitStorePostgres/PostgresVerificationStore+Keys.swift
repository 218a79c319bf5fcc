import Foundation
import TacitStore

/// API keys in the database, so a key made or revoked through one instance is the same
/// key on every other at its next lookup.
extension PostgresVerificationStore: KeyStore {
    public func insertKey(_ key: APIKey, hash: [UInt8]) async throws {
        try await read { db in
            try db.execute("""
                INSERT INTO api_keys (id, application_id, name, key_hash, scopes, created_at, last_used_at, revoked_at)
                VALUES (\(key.id), \(key.applicationId), \(key.name), \(hash), \(key.scopes.joined(separator: " ")),
                        \(key.createdAt.timeIntervalSince1970), \(key.lastUsedAt?.timeIntervalSince1970),
                        \(key.revokedAt?.timeIntervalSince1970))
                """)
        }
    }

    public func key(hash: [UInt8]) async throws -> APIKey? {
        try await read { db in try db.query("SELECT * FROM api_keys WHERE key_hash = \(hash)").first.map(Self.apiKey) }
    }

    public func keys() async throws -> [APIKey] {
        try await read { db in try db.query("SELECT * FROM api_keys ORDER BY created_at, id").map(Self.apiKey) }
    }

    public func revokeKey(id: String, at: Date) async throws -> Bool {
        try await read { db in
            try db.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(at.timeIntervalSince1970)) WHERE id = \(id)"
            ) == 1
        }
    }

    public func touchKey(id: String, at: Date) async throws {
        try await read { db in
            try db.execute("UPDATE api_keys SET last_used_at = \(at.timeIntervalSince1970) WHERE id = \(id)")
        }
    }

    static func apiKey(_ row: PostgresRow) throws -> APIKey {
        APIKey(id: try row.string("id"), name: try row.string("name"),
               scopes: try row.string("scopes").split(separator: " ").map(String.init),
               createdAt: try row.date("created_at"),
               lastUsedAt: try row.optionalDate("last_used_at"), revokedAt: try row.optionalDate("revoked_at"),
               applicationId: try row.string("application_id"))
    }
}
