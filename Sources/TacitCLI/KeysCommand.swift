import Foundation
import TacitServer
import TacitStore
import TacitStoreSQLite

/// `tacit keys create|list|revoke`: API keys in the store `tacit serve` uses; `rotate` and
/// `reseal` manage the master keys (see `KeysRotateCommand`, `KeysResealCommand`).
enum KeysCommand: Command {
    static let usage = """
        Usage: tacit keys create --name NAME [--app ID] [--scopes SCOPE,…] [STORE]
               tacit keys list [STORE]
               tacit keys revoke ID [STORE]
               tacit keys rotate [STORE]
               tacit keys reseal [STORE]

        STORE: [--db PATH | --database-url URL] [--key-file PATH] [--secret SECRET]
               [--old-secrets "A B"] [--config FILE]
        (the same flags and TACIT_* variables as `tacit serve`).

        A new API key is printed once and stored only as a hash. It acts for the application
        --app names (see `tacit apps`), or for the default one.
        Scopes: verifications:read, verifications:write (default: both).

        rotate adds a new master key to the front of the key file: once the servers restart,
        it seals new data and the older keys still open what they sealed. reseal then seals
        every stored number and reply again under the newest key, in small batches; after
        it, the older keys can be removed from the file.
        """

    static let name = "keys"
    /// The options that say which store, as `tacit serve` reads them.
    static let storeFlags = Set(["db", "database-url", "secret", "config"]).union(ServerSettings.keyValued)
    static var valued: Set<String> { storeFlags.union(["name", "scopes", "app"]) }
    static let flags: Set<String> = []

    static func run(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        let actions = ["create", "list", "revoke", "rotate", "reseal"]
        guard let action = parsed.positional.first, actions.contains(action) else {
            let problem = parsed.positional.first.map { "unknown keys command \($0)" } ?? "no keys command given"
            throw Arguments.UsageError(message: problem)
        }
        let rest = Array(parsed.positional.dropFirst())
        guard rest.count == (action == "revoke" ? 1 : 0) else {
            throw Arguments.UsageError(message: action == "revoke" ? "revoke needs exactly one key ID"
                                                                   : "unexpected argument \(rest[0])")
        }
        if action == "create", parsed.value("name") == nil {
            throw Arguments.UsageError(message: "create needs --name")
        }
        do {
            let configuration = try ServerSettings.configuration(parsed, environment: context.environment)
            if action == "rotate" { return try KeysRotateCommand.run(configuration, context) }
            if action == "reseal" { return try await KeysResealCommand.run(configuration, context) }
            let manager = try await KeyManager.open(store: try StoreFactory.open(configuration))
            switch action {
            case "create": return try await create(manager, parsed, context)
            case "list": return try await list(manager, context)
            default: return try await revoke(manager, id: rest[0], context)
            }
        } catch let error as Arguments.UsageError {
            throw error
        } catch let error as KeySetupError {
            context.printError("tacit keys: \(error)")
            return 2
        } catch {
            context.printError("tacit keys: \(error)")
            return 1
        }
    }

    private static func create(_ manager: KeyManager, _ parsed: Arguments,
                               _ context: CommandContext) async throws -> Int32 {
        let scopes = (parsed.value("scopes") ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        let (key, secret) = try await manager.create(name: parsed.value("name") ?? "", scopes: scopes,
                                                     application: parsed.value("app") ?? Application.defaultID)
        context.print("Created API key \(key.id) (\(key.name)) for application \(key.applicationId)"
                      + " with scopes \(key.scopes.joined(separator: ","))")
        context.print(secret)
        context.print("This is the only time the key is shown; store it now.")
        return 0
    }

    private static func list(_ manager: KeyManager, _ context: CommandContext) async throws -> Int32 {
        let keys = try await manager.list()
        guard !keys.isEmpty else {
            context.print("No API keys.")
            return 0
        }
        context.print(["ID", "NAME", "APP", "SCOPES", "CREATED", "LAST USED", "REVOKED"].joined(separator: "\t"))
        for key in keys {
            let dates = [key.createdAt, key.lastUsedAt, key.revokedAt].map { date in
                date.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
            }
            context.print(([key.id, key.name, key.applicationId, key.scopes.joined(separator: ",")] + dates)
                .joined(separator: "\t"))
        }
        return 0
    }

    private static func revoke(_ manager: KeyManager, id: String, _ context: CommandContext) async throws -> Int32 {
        guard try await manager.revoke(id: id) else {
            context.printError("tacit keys: no key has the id \(id)")
            return 1
        }
        context.print("Revoked API key \(id).")
        return 0
    }
}
