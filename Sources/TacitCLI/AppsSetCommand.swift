import Foundation
import TacitServer
import TacitStore
import TacitStoreSQLite

/// `tacit apps set ID …`: reads the settings given into an `ApplicationChange` and applies it.
/// Only a signature secret needs the key ring, loaded as `tacit keys reseal` loads it.
enum AppsSetCommand {
    static func run(_ manager: ApplicationManager, id: String, _ parsed: Arguments, configuration: ServerConfiguration,
                    store: any VerificationStore, _ context: CommandContext) async throws -> Int32 {
        var change = ApplicationChange()
        change.brand = parsed.value("brand")
        change.codeLength = try parsed.value("code-length").map { try integer($0, flag: "code-length") }
        change.channelTimeout = try parsed.value("channel-timeout").map { try integer($0, flag: "channel-timeout") }
        change.smsAppHash = parsed.value("sms-app-hash")
        change.smsOrigin = parsed.value("sms-origin")
        change.fraudLevel = parsed.value("fraud-level")
        change = try faceSettings(parsed, into: change)
        let updated: Application?
        if change.needsSealing(DropInFaces.all) {
            var production = configuration
            production.dev = false
            let secrets = try await ServerSecrets.load(configuration: production, store: store)
            updated = try await manager.set(id: id, change) { try secrets.fieldProtection.seal($0) }
        } else {
            updated = try await manager.set(id: id, change)
        }
        guard updated != nil else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        context.print("Updated application \(id).")
        return 0
    }

    /// `change` with every face setting `parsed` gives, a file read where the setting takes one.
    static func faceSettings(_ parsed: Arguments, into change: ApplicationChange) throws -> ApplicationChange {
        var change = change
        for setting in DropInFaces.settings {
            guard let value = parsed.value(setting.option) else { continue }
            change.faceSettings[setting.option] = setting.valueFromFile ? try AppsCommand.readKeyFile(value) : value
        }
        return change
    }

    private static func integer(_ text: String, flag: String) throws -> Int {
        guard let value = Int(text) else { throw Arguments.UsageError(message: "--\(flag) must be a whole number") }
        return value
    }
}
