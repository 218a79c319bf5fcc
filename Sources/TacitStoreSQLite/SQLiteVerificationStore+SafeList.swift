import Foundation
import TacitStore

/// Applications' safe lists in `safe_list`, one row per number or prefix.
extension SQLiteVerificationStore: SafeListStore {
    /// Through a copy kept for a second (`KeptPerApplication`): every start reads it.
    public func safeList(application: String) async throws -> [SafeListEntry] {
        try await keptSafeLists.value(of: application) { try await storedSafeList(application: application) }
    }

    private func storedSafeList(application: String) async throws -> [SafeListEntry] {
        try await database.read { db in
            try db.query("SELECT * FROM safe_list WHERE application_id = \(application) ORDER BY entry").map { row in
                SafeListEntry(applicationId: application, entry: try row.string("entry"),
                              createdAt: Date(timeIntervalSince1970: try row.double("created_at")))
            }
        }
    }

    public func addSafeListEntry(_ entry: SafeListEntry) async throws -> Bool {
        defer { keptSafeLists.forget(entry.applicationId) }
        return try await database.write { db in
            guard try !db.query("SELECT 1 FROM applications WHERE id = \(entry.applicationId)").isEmpty else {
                return false
            }
            try db.execute("""
                INSERT INTO safe_list (application_id, entry, created_at)
                VALUES (\(entry.applicationId), \(entry.entry), \(entry.createdAt.timeIntervalSince1970))
                ON CONFLICT (application_id, entry) DO NOTHING
                """)
            return true
        }
    }

    public func removeSafeListEntry(application: String, entry: String) async throws -> Bool {
        defer { keptSafeLists.forget(application) }
        return try await database.write { db in
            try db.execute("DELETE FROM safe_list WHERE application_id = \(application) AND entry = \(entry)")
            return db.changes == 1
        }
    }
}
