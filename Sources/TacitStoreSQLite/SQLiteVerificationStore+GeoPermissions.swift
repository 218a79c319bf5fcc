import Foundation
import TacitCore
import TacitStore

/// Applications' geo permissions in `geo_permissions`, one row per channel.
extension SQLiteVerificationStore: GeoPermissionStore {
    /// Through a copy kept for a second (`KeptPerApplication`): every start reads them.
    public func geoPermissions(application: String) async throws -> [GeoPermission] {
        try await keptGeoPermissions.value(of: application) { try await storedGeoPermissions(application: application) }
    }

    private func storedGeoPermissions(application: String) async throws -> [GeoPermission] {
        try await database.read { db in
            try db.query("SELECT * FROM geo_permissions WHERE application_id = \(application) ORDER BY channel")
                .compactMap { row in
                    try GeoPermission(stored: application, channel: try row.string("channel"),
                                      countries: try row.string("countries"), mode: try row.string("mode"),
                                      updatedAt: Date(timeIntervalSince1970: try row.double("updated_at")))
                }
        }
    }

    public func setGeoPermission(_ permission: GeoPermission) async throws -> Bool {
        defer { keptGeoPermissions.forget(permission.applicationId) }
        return try await database.write { db in
            guard try !db.query("SELECT 1 FROM applications WHERE id = \(permission.applicationId)").isEmpty else {
                return false
            }
            try db.execute("""
                INSERT INTO geo_permissions (application_id, channel, countries, mode, updated_at)
                VALUES (\(permission.applicationId), \(permission.channel.rawValue), \(permission.storedCountries),
                    \(permission.mode.rawValue), \(permission.updatedAt.timeIntervalSince1970))
                ON CONFLICT (application_id, channel) DO UPDATE SET countries = excluded.countries,
                    mode = excluded.mode, updated_at = excluded.updated_at
                """)
            return true
        }
    }

    public func removeGeoPermission(application: String, channel: Channel) async throws -> Bool {
        defer { keptGeoPermissions.forget(application) }
        return try await database.write { db in
            try db.execute("""
                DELETE FROM geo_permissions WHERE application_id = \(application) AND channel = \(channel.rawValue)
                """)
            return db.changes == 1
        }
    }
}
