import Foundation
import TacitServer
import TacitStore

/// `tacit apps show APP`: one application as its starts see it (docs/cli.md): its settings,
/// its geo permissions, its test numbers (never their codes) and its safe list.
enum AppsShowCommand {
    static func run(_ store: any VerificationStore, id: String, _ context: CommandContext) async throws -> Int32 {
        guard let applications = store as? any ApplicationStore,
              let application = try await applications.application(id: id) else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        let s = application.settings
        let format = ISO8601DateFormatter()
        var lines = [
            "Application \(application.id) (\(application.name))",
            "created: \(format.string(from: application.createdAt))",
            "revoked: \(application.revokedAt.map(format.string(from:)) ?? "-")",
            "brand: \(s.brand ?? "-")",
            "code length: \(s.codeLength.map(String.init) ?? "-")",
            "channel timeout: \(s.channelTimeout.map(String.init) ?? "-")",
            "sms app hash: \(s.smsAppHash ?? "-")",
            "sms origin: \(s.smsOrigin ?? "-")",
            "fraud level: \(s.fraudLevel.rawValue)",
        ]
        if let geo = GeoPermissionManager(store: store) {
            lines.append("geo permissions:")
            lines += AppsGeoCommand.lines(try await geo.list(application: id))
        }
        if let tests = store as? any TestNumberStore {
            let numbers = try await tests.testNumbers(application: id)
            lines.append("test numbers:" + (numbers.isEmpty ? " none" : ""))
            let now = Date()
            lines += numbers.map { "  \($0.phoneNumber) (\($0.isActive(at: now) ? "active" : "expired"))" }
        }
        if let safe = store as? any SafeListStore {
            let entries = try await safe.safeList(application: id)
            lines.append("safe list:" + (entries.isEmpty ? " none" : ""))
            lines += entries.map { "  \($0.entry)" }
        }
        context.print(lines.joined(separator: "\n"))
        return 0
    }
}
