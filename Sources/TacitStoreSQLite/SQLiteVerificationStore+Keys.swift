import Foundation
import TacitStore

extension SQLiteVerificationStore: KeyStore {
    public func insertKey(_ key: APIKey, hash: [UInt8]) async throws {
        try await database.write { db in
            try db.execute("""
                INSERT INTO api_keys (id, name, key_hash, scopes, created_at, last_used_at, revoked_at, application_id)
                VALUES (\(key.id), \(key.name), \(hash), \(key.scopes.joined(separator: " ")),
                        \(key.createdAt.timeIntervalSince1970), \(key.lastUsedAt?.timeIntervalSince1970),
                        \(key.revokedAt?.timeIntervalSince1970), \(key.applicationId))
                """)
        }
    }

    public func key(hash: [UInt8]) async throws -> APIKey? {
        let rows = try await database.read { db in try db.query("SELECT * FROM api_keys WHERE key_hash = \(hash)") }
        return try rows.first.map(Self.apiKey)
    }

    public func keys() async throws -> [APIKey] {
        let rows = try await database.read { db in try db.query("SELECT * FROM api_keys ORDER BY created_at, id") }
        return try rows.map(Self.apiKey)
    }

    public func revokeKey(id: String, at: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, \(at.timeIntervalSince1970)) WHERE id = \(id)")
            return try db.query("SELECT id FROM api_keys WHERE id = \(id)").first != nil
        }
    }

    public func touchKey(id: String, at: Date) async throws {
        try await database.write { db in
            try db.execute("UPDATE api_keys SET last_used_at = \(at.timeIntervalSince1970) WHERE id = \(id)")
        }
    }

    static func apiKey(_ row: Row) throws -> APIKey {
        APIKey(id: try row.string("id"), name: try row.string("name"),
               scopes: try row.string("scopes").split(separator: " ").map(String.init),
               createdAt: Date(timeIntervalSince1970: try row.double("created_at")),
               lastUsedAt: try row.optionalDouble("last_used_at").map(Date.init(timeIntervalSince1970:)),
               revokedAt: try row.optionalDouble("revoked_at").map(Date.init(timeIntervalSince1970:)),
               applicationId: try row.string("application_id"))
    }
}
