import Foundation
import TacitCore
import TacitStore

/// Applications' geo permissions in memory, one per application and channel.
extension InMemoryStore: GeoPermissionStore {
    public func geoPermissions(application: String) async throws -> [GeoPermission] {
        heldGeoPermissions.withLock { held in
            held.filter { $0.applicationId == application }.sorted { $0.channel.rawValue < $1.channel.rawValue }
        }
    }

    public func setGeoPermission(_ permission: GeoPermission) async throws -> Bool {
        guard try await application(id: permission.applicationId) != nil else { return false }
        heldGeoPermissions.withLock { held in
            held.removeAll { $0.applicationId == permission.applicationId && $0.channel == permission.channel }
            held.append(permission)
        }
        return true
    }

    public func removeGeoPermission(application: String, channel: Channel) async throws -> Bool {
        heldGeoPermissions.withLock { held in
            let before = held.count
            held.removeAll { $0.applicationId == application && $0.channel == channel }
            return held.count < before
        }
    }
}
