import Foundation
import TacitStore

/// Applications' test numbers in `test_numbers`, as the SQLite store keeps them.
extension PostgresVerificationStore: TestNumberStore {
    /// Through a copy kept for a second (`KeptPerApplication`): every start reads them.
    public func testNumbers(application: String) async throws -> [TestNumber] {
        try await keptTestNumbers.value(of: application) { try await storedTestNumbers(application: application) }
    }

    private func storedTestNumbers(application: String) async throws -> [TestNumber] {
        try await read { db in
            try db.query("""
                SELECT * FROM test_numbers WHERE application_id = \(application) ORDER BY phone_number
                """).map { row in
                TestNumber(applicationId: application, phoneNumber: try row.string("phone_number"),
                           sealedCode: try row.bytes("sealed_code"), expiresAt: try row.optionalDate("expires_at"),
                           createdAt: try row.date("created_at"))
            }
        }
    }

    public func setTestNumber(_ number: TestNumber) async throws -> Bool {
        defer { keptTestNumbers.forget(number.applicationId) }
        return try await write { db in
            guard try !db.query("SELECT 1 FROM applications WHERE id = \(number.applicationId)").isEmpty else {
                return false
            }
            try db.execute("""
                INSERT INTO test_numbers (application_id, phone_number, sealed_code, expires_at, created_at)
                VALUES (\(number.applicationId), \(number.phoneNumber), \(number.sealedCode),
                    \(number.expiresAt?.timeIntervalSince1970), \(number.createdAt.timeIntervalSince1970))
                ON CONFLICT (application_id, phone_number) DO UPDATE SET sealed_code = excluded.sealed_code,
                    expires_at = excluded.expires_at, created_at = excluded.created_at
                """)
            return true
        }
    }

    public func deleteTestNumber(application: String, phoneNumber: String) async throws -> Bool {
        defer { keptTestNumbers.forget(application) }
        return try await read { db in
            try db.execute("""
                DELETE FROM test_numbers WHERE application_id = \(application) AND phone_number = \(phoneNumber)
                """) == 1
        }
    }
}
