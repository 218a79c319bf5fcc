import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// The `/v1/settings` routes (docs/api.md#settings): the acting application reads its settings
/// (its starts' defaults, its SMS autofill lines and its geo permissions) with any key that
/// reads, and changes them with a JSON merge patch and a key holding `settings:write`. A
/// running server's other instances see a change within a second, as they do `tacit apps set`.
struct SettingsRoutes: Sendable {
    let store: any VerificationStore
    let clock: any TacitClock

    func register(_ router: inout RouteTable) {
        router.add("GET", "/v1/settings", .read, throwing: fetch)
        router.add("PATCH", "/v1/settings", .settingsWrite, throwing: patch)
    }

    private func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (_, settings) = try await current()
        return Self.json(SettingsPatch.document(application: application, settings: settings,
                                                permissions: try await permissions()))
    }

    private func patch(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.requireJSON()
        guard !request.body.isEmpty else {
            throw APIProblem.malformedJSON("The request body is empty; send a JSON object.")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(request.body) } catch { throw APIProblem.malformedJSON() }
        guard case .object(let members) = value else {
            throw APIProblem.malformedJSON("The request body must be a JSON object.")
        }
        let (applications, settings) = try await current()
        let geo = store as? any GeoPermissionStore
        let permissions = try await permissions()
        let change = try SettingsPatch(members, application: application, settings: settings,
                                       permissions: permissions, now: clock.now())
        if geo == nil, !change.geoSet.isEmpty || !change.geoRemoved.isEmpty { throw APIProblem.unavailable }
        if change.settingsChanged,
           try await !applications.updateApplication(id: application, settings: change.settings) {
            throw APIProblem.notFound
        }
        if let geo {
            for permission in change.geoSet where try await !geo.setGeoPermission(permission) {
                throw APIProblem.notFound
            }
            for channel in change.geoRemoved {
                _ = try await geo.removeGeoPermission(application: application, channel: channel)
            }
        }
        let stored = try await applications.application(id: application)?.settings ?? change.settings
        return Self.json(SettingsPatch.document(application: application, settings: stored,
                                                permissions: try await self.permissions()))
    }

    private var application: String { ActingApplication.id ?? Application.defaultID }

    /// The store's applications and the acting one's settings, read from the row (not the copy
    /// kept a second), so a change just made shows.
    private func current() async throws -> (any ApplicationStore, ApplicationSettings) {
        guard let applications = store as? any ApplicationStore else { throw APIProblem.unavailable }
        guard let found = try await applications.application(id: application) else { throw APIProblem.notFound }
        return (applications, found.settings)
    }

    private func permissions() async throws -> [GeoPermission] {
        try await (store as? any GeoPermissionStore)?.geoPermissions(application: application) ?? []
    }

    private static func json(_ value: JSONValue) -> HTTPResponse {
        var writer = JSONWriter()
        writer.value(value)
        return .json(bytes: writer.bytes)
    }
}
