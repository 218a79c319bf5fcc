import Foundation
import TacitServer
import TacitStore
import TacitStoreSQLite

/// `tacit keys create|list|revoke`: API keys in the store `tacit serve` uses; `rotate` and
/// `reseal` manage the master keys (see `KeysRotateCommand`, `KeysResealCommand`).
enum KeysCommand {
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

    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: storeFlags.union(["name", "scopes", "app"]), flags: [])
        } catch let error as Arguments.UsageError {
            return CLI.usageError(error.message, usage: usage)
        } catch { return CLI.usageError("\(error)", usage: usage) }
        guard let action = parsed.positional.first, ["create", "list", "revoke", "rotate", "reseal"].contains(action) else {
            return CLI.usageError(parsed.positional.first.map { "unknown keys command \($0)" } ?? "no keys command given", usage: usage)
        }
        let rest = Array(parsed.positional.dropFirst())
        guard rest.count == (action == "revoke" ? 1 : 0) else {
            return CLI.usageError(action == "revoke" ? "revoke needs exactly one key ID" : "unexpected argument \(rest[0])", usage: usage)
        }
        if action == "create", parsed.value("name") == nil { return CLI.usageError("create needs --name", usage: usage) }
        let store: [String] = storeFlags.sorted().flatMap { flag in parsed.value(flag).map { ["--\(flag)", $0] } ?? [] }
        do {
            if action == "rotate" { return try KeysRotateCommand.run(try configuration(store)) }
            if action == "reseal" { return try await KeysResealCommand.run(try configuration(store)) }
            let manager = try await open(store)
            switch action {
            case "create": return try await create(manager, name: parsed.value("name") ?? "", scopes: parsed.value("scopes"),
                                                   application: parsed.value("app"))
            case "list": return try await list(manager)
            default: return try await revoke(manager, id: rest[0])
            }
        } catch let error as Arguments.UsageError {
            return CLI.usageError(error.message, usage: usage)
        } catch let error as KeySetupError {
            CLI.printError("tacit keys: \(error)")
            return 2
        } catch {
            CLI.printError("tacit keys: \(error)")
            return 1
        }
    }

    static let storeFlags = Set(["db", "database-url", "secret", "config"]).union(ServerSettings.keyValued)

    /// The store settings, as `tacit serve` reads them.
    static func configuration(_ storeFlags: [String]) throws -> ServerConfiguration {
        try ServerSettings.configuration(storeFlags)
    }

    private static func open(_ storeFlags: [String]) async throws -> KeyManager {
        try await KeyManager.open(store: try StoreFactory.open(try configuration(storeFlags)))
    }

    private static func create(_ manager: KeyManager, name: String, scopes: String?, application: String?) async throws -> Int32 {
        let list = (scopes ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        let (key, secret) = try await manager.create(name: name, scopes: list, application: application ?? Application.defaultID)
        print("Created API key \(key.id) (\(key.name)) for application \(key.applicationId) with scopes \(key.scopes.joined(separator: ","))")
        print(secret)
        print("This is the only time the key is shown; store it now.")
        return 0
    }

    private static func list(_ manager: KeyManager) async throws -> Int32 {
        let keys = try await manager.list()
        guard !keys.isEmpty else { print("No API keys."); return 0 }
        print(["ID", "NAME", "APP", "SCOPES", "CREATED", "LAST USED", "REVOKED"].joined(separator: "\t"))
        for key in keys {
            let dates = [key.createdAt, key.lastUsedAt, key.revokedAt].map { $0.map { ISO8601DateFormatter().string(from: $0) } ?? "-" }
            print(([key.id, key.name, key.applicationId, key.scopes.joined(separator: ",")] + dates).joined(separator: "\t"))
        }
        return 0
    }

    private static func revoke(_ manager: KeyManager, id: String) async throws -> Int32 {
        guard try await manager.revoke(id: id) else {
            CLI.printError("tacit keys: no key has the id \(id)")
            return 1
        }
        print("Revoked API key \(id).")
        return 0
    }
}
