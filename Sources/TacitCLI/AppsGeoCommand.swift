import Foundation
import TacitCore
import TacitServer
import TacitStore

/// `tacit apps geo APP --channel C --allow US,GB [--mode monitor]` and `… --allow-all`: the
/// countries each channel of an application may reach (docs/fraud.md#geo-permissions). A
/// running server reads a change within a second.
enum AppsGeoCommand {
    static let flags: Set<String> = ["allow", "mode"]
    static let switches: Set<String> = ["allow-all"]

    /// What is wrong with how `geo` was called, if anything.
    static func misuse(_ parsed: Arguments) -> String? {
        if parsed.positional.count != 2 { return "geo needs exactly one application ID" }
        guard let channel = parsed.value("channel") else { return "geo needs --channel" }
        if let refusal = Result(catching: { try GeoPermissionManager.channel(channel) }).failure {
            return "--channel: \(refusal)"
        }
        switch (parsed.value("allow"), parsed.has("allow-all")) {
        case (nil, false): return "geo needs --allow COUNTRIES or --allow-all"
        case (.some, true): return "--allow and --allow-all go apart"
        case (nil, true) where parsed.value("mode") != nil: return "--mode goes with --allow"
        default: break
        }
        if let mode = parsed.value("mode"), GeoPermission.Mode(rawValue: mode) == nil {
            return "--mode must be enforce or monitor"
        }
        return nil
    }

    static func run(_ store: any VerificationStore, _ parsed: Arguments, _ context: CommandContext) async throws
        -> Int32 {
        let id = parsed.positional[1]
        guard let applications = store as? any ApplicationStore,
              try await applications.application(id: id) != nil else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        guard let manager = GeoPermissionManager(store: store) else {
            context.printError("tacit apps: this store keeps no geo permissions")
            return 1
        }
        let channel = try GeoPermissionManager.channel(parsed.value("channel") ?? "")
        guard let allow = parsed.value("allow") else {
            let removed = try await manager.allowAll(application: id, channel: channel)
            context.print(removed ? "The \(channel.rawValue) steps of application \(id) reach every country again."
                              : "The \(channel.rawValue) steps of application \(id) already reach every country.")
            return 0
        }
        let mode = parsed.value("mode").flatMap(GeoPermission.Mode.init(rawValue:)) ?? .enforce
        do {
            guard let permission = try await manager.allow(application: id, channel: channel,
                                                           countries: allow.split(separator: ",").map(String.init),
                                                           mode: mode, now: Date()) else {
                context.printError("tacit apps: no application has the id \(id)")
                return 1
            }
            context.print("The \(channel.rawValue) steps of application \(id) reach "
                              + permission.countries.joined(separator: ", ") + " only ("
                              + (mode == .monitor ? "monitor: other countries are recorded, not refused)."
                                                  : "enforce: other countries are refused)."))
            return 0
        } catch let refusal as GeoPermissionManager.Refusal {
            context.printError("tacit apps: geo permission refused: \(refusal)")
            return 1
        }
    }

    /// The lines `tacit apps show` prints for the application's permissions: one per channel
    /// a permission can be set for, those without one reaching every country.
    static func lines(_ permissions: [GeoPermission]) -> [String] {
        GeoPermission.channels.map { channel in
            guard let permission = permissions.first(where: { $0.channel == channel }) else {
                return "  \(channel.rawValue): every country"
            }
            return "  \(channel.rawValue): \(permission.countries.joined(separator: ",")) (\(permission.mode.rawValue))"
        }
    }
}

extension Result {
    /// The error, when this is one.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
