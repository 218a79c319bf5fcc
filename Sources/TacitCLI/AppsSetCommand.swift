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
        change.vonageCallbackURL = parsed.value("vonage-callback-url")
        change.vonageSignatureSecret = parsed.value("vonage-signature-secret")
        change.vonagePublicKeyPEM = try parsed.value("vonage-public-key").map(AppsCommand.readKeyFile)
        let updated: Application?
        if change.needsSealing {
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

    private static func integer(_ text: String, flag: String) throws -> Int {
        guard let value = Int(text) else { throw Arguments.UsageError(message: "--\(flag) must be a whole number") }
        return value
    }
}
