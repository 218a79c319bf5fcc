import Foundation
import TacitServer
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// Two applications on one test server, each with its own key, and the rows one
/// verification owns, read from the SQLite file to prove another application changed none.
enum TenantFixtures {
    struct Tenants {
        var a: Application
        var keyA: String
        var b: Application
        var keyB: String
    }

    static func tenants(_ app: TestApplication) async throws -> Tenants {
        let store = try require(app.store as? any VerificationStore & KeyStore & ApplicationStore)
        let manager = try await ApplicationManager.open(store: store)
        let a = try await manager.create(name: "Alpha")
        let b = try await manager.create(name: "Bravo")
        return Tenants(a: a.application, keyA: a.credentials.apiKey, b: b.application, keyB: b.credentials.apiKey)
    }

    /// Every stored value of the verification `id`: its row, its events and the
    /// idempotency records of its application.
    static func rows(of id: String, application: String, in path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, options: SQLiteOptions(readOnly: true))
        defer { connection.close() }
        let queries: [SQL] = [
            "SELECT * FROM verifications WHERE id = \(id)",
            "SELECT * FROM event_groups WHERE request_id = \(id) ORDER BY id",
            "SELECT * FROM idempotency WHERE application_id = \(application) ORDER BY key",
            "SELECT * FROM webhook_outbox WHERE request_id = \(id) ORDER BY id",
        ]
        return try queries.flatMap { query in
            try connection.query(query).map { row in row.values.map { "\($0)" }.joined(separator: "|") }
        }
    }
}

/// `#require` for a fixture outside a test body.
private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw FixtureError() }
    return value
}

private struct FixtureError: Error {}
