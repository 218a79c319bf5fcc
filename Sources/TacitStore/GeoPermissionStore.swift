import Foundation
import TacitCore

/// Where applications' geo permissions live, one row per (application, channel). Every call
/// names its application: one application never reads or changes another's.
public protocol GeoPermissionStore: Sendable {
    /// The application's permissions, by channel. Stores answer from a copy kept for a second
    /// (`KeptPerApplication`): every start reads them.
    func geoPermissions(application: String) async throws -> [GeoPermission]
    /// Adds or replaces the permission of its channel; false when no application has its id.
    func setGeoPermission(_ permission: GeoPermission) async throws -> Bool
    /// Removes the application's permission for `channel`, which then reaches every country;
    /// false when it had none.
    func removeGeoPermission(application: String, channel: Channel) async throws -> Bool
}
