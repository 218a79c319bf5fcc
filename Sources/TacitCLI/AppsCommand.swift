import Foundation
import TacitServer
import TacitStore
import TacitStoreSQLite

/// `tacit apps create|list|revoke|set`: applications in the store `tacit serve` uses
/// (docs/api.md#applications-and-keys). Credentials are printed once, by create; the store keeps only hashes.
enum AppsCommand: Command {
    static let usage = """
        Usage: tacit apps create --name NAME [--vonage-public-key FILE] [--json] [STORE]
               tacit apps list [STORE]
               tacit apps revoke ID [STORE]
               tacit apps set ID [--brand B] [--code-length N] [--channel-timeout S]
                                 [--sms-app-hash HASH] [--sms-origin DOMAIN]
                                 [--fraud-level off|basic|standard|max]
                                 [--vonage-callback-url URL] [--vonage-signature-secret S]
                                 [--vonage-public-key FILE] [STORE]
               tacit apps templates set ID --channel C --locale L [--subject S] TEXT [STORE]
               tacit apps templates list ID [STORE]
               tacit apps templates delete ID --channel C --locale L [STORE]
               tacit apps test-numbers add ID NUMBER --code CODE [--expires 30d] [STORE]
               tacit apps test-numbers list ID [STORE]
               tacit apps test-numbers remove ID NUMBER [STORE]
               tacit apps safe-list add|remove ID NUMBER|PREFIX* [STORE]
               tacit apps safe-list list ID [STORE]
               tacit apps geo ID --channel C --allow US,GB [--mode enforce|monitor] [STORE]
               tacit apps geo ID --channel C --allow-all [STORE]
               tacit apps show ID [STORE]

        STORE: [--db PATH | --database-url URL] [--key-file PATH] [--secret SECRET]
               [--old-secrets "A B"] [--config FILE]
        (the same flags and TACIT_* variables as `tacit serve`).

        create prints the application's credentials once: a Tacit API key, Vonage-style
        application_id, api_key and api_secret, and Twilio-style account_sid, auth_token and
        service_sid. revoke stops every credential of the application at once, in running
        servers too. set changes the defaults of the application's starts and what the
        drop-in faces use; the signature secret is sealed with the master key; an empty
        --sms-app-hash or --sms-origin removes it; --fraud-level sets how hard the automatic
        fraud rules judge its starts (basic unless set). templates word the application's code
        messages per channel and locale with {{code}}, {{brand}}, {{minutes}} and, for sms,
        {{app_hash}} and {{origin}}; list shows each SMS's encoding and segments.
        test-numbers are numbers whose starts send nothing and take the fixed code (for App
        Store review and CI); the code is sealed with the master key and never shown again.
        safe-list names numbers, and prefixes ending in * (+4477*), whose starts skip the
        automatic fraud rules; the line-type refusal and per-number limits still apply.
        geo lets a channel (sms, voice, whatsapp, silent_auth) reach only the countries
        listed (ISO 3166 alpha-2); monitor records what it would refuse instead; --allow-all
        removes the list. show prints an application's settings, geo permissions, test
        numbers and safe list.
        """

    static let name = "apps"
    /// The application's own settings, then every face's.
    static let settingFlags = Set(["brand", "code-length", "channel-timeout", "sms-app-hash", "sms-origin",
                                   "fraud-level"]
                                  + DropInFaces.settings.map(\.option))
    static var valued: Set<String> {
        KeysCommand.storeFlags.union(settingFlags).union(["name"]).union(AppsTemplatesCommand.flags)
            .union(AppsTestNumbersCommand.flags).union(AppsGeoCommand.flags)
    }
    static let flags: Set<String> = Set(["json"]).union(AppsGeoCommand.switches)

    static func run(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        guard let action = parsed.positional.first,
              ["create", "list", "revoke", "set", "templates", "test-numbers", "safe-list", "geo", "show"]
                .contains(action) else {
            let problem = parsed.positional.first.map { "unknown apps command \($0)" } ?? "no apps command given"
            throw Arguments.UsageError(message: problem)
        }
        if let problem = misuse(action, parsed) { throw Arguments.UsageError(message: problem) }
        let rest = Array(parsed.positional.dropFirst())
        do {
            let configuration = try ServerSettings.configuration(parsed, environment: context.environment)
            let database = try StoreFactory.open(configuration)
            let manager = try await ApplicationManager.open(store: database, faces: DropInFaces.all)
            switch action {
            case "create": return try await create(manager, parsed, context)
            case "list": return try await list(manager, context)
            case "revoke": return try await revoke(manager, id: rest[0], context)
            case "templates": return try await AppsTemplatesCommand.run(database, parsed, context)
            case "safe-list": return try await AppsSafeListCommand.run(database, parsed, context)
            case "geo": return try await AppsGeoCommand.run(database, parsed, context)
            case "show": return try await AppsShowCommand.run(database, id: rest[0], context)
            case "test-numbers":
                return try await AppsTestNumbersCommand.run(database, parsed, configuration: configuration, context)
            default:
                return try await AppsSetCommand.run(manager, id: rest[0], parsed, configuration: configuration,
                                                    store: database, context)
            }
        } catch let error as Arguments.UsageError {
            throw error
        } catch let error as KeySetupError {
            context.printError("tacit apps: \(error)")
            return 2
        } catch {
            context.printError("tacit apps: \(error)")
            return 1
        }
    }

    /// What is wrong with how `action` was called, if anything.
    private static func misuse(_ action: String, _ parsed: Arguments) -> String? {
        if action == "geo" || action == "show" {
            let allowed: Set<String> = action == "geo" ? AppsGeoCommand.flags.union(["channel"]) : []
            if let other = settingFlags.union(["name"]).union(AppsTemplatesCommand.flags)
                .union(AppsTestNumbersCommand.flags).union(AppsGeoCommand.flags).subtracting(allowed).sorted()
                .first(where: { parsed.value($0) != nil }) {
                return "\(action) takes no --\(other)"
            }
            if parsed.has("json") { return "--json goes with create" }
            if action == "show" {
                if parsed.has("allow-all") { return "show takes no --allow-all" }
                return parsed.positional.count == 2 ? nil : "show needs exactly one application ID"
            }
            return AppsGeoCommand.misuse(parsed)
        }
        if let flag = AppsGeoCommand.flags.union(AppsGeoCommand.switches).sorted()
            .first(where: { parsed.value($0) != nil || parsed.has($0) }) {
            return "--\(flag) goes with geo"
        }
        let templateFlags = AppsTemplatesCommand.flags.filter { parsed.value($0) != nil }
        if action == "templates" {
            if let other = settingFlags.union(["name"]).sorted().first(where: { parsed.value($0) != nil }) {
                return "templates takes no --\(other)"
            }
            if parsed.has("json") { return "--json goes with create" }
            return AppsTemplatesCommand.misuse(parsed)
        }
        if action == "test-numbers" {
            if let other = settingFlags.union(["name"]).union(AppsTemplatesCommand.flags).sorted()
                .first(where: { parsed.value($0) != nil }) {
                return "test-numbers takes no --\(other)"
            }
            if parsed.has("json") { return "--json goes with create" }
            return AppsTestNumbersCommand.misuse(parsed)
        }
        if action == "safe-list" {
            if let other = settingFlags.union(["name"]).union(AppsTemplatesCommand.flags)
                .union(AppsTestNumbersCommand.flags).sorted().first(where: { parsed.value($0) != nil }) {
                return "safe-list takes no --\(other)"
            }
            if parsed.has("json") { return "--json goes with create" }
            return AppsSafeListCommand.misuse(parsed)
        }
        if let flag = AppsTestNumbersCommand.flags.sorted().first(where: { parsed.value($0) != nil }) {
            return "--\(flag) goes with test-numbers"
        }
        if let flag = templateFlags.sorted().first { return "--\(flag) goes with templates" }
        let rest = parsed.positional.dropFirst()
        let needsID = action == "revoke" || action == "set"
        if rest.count != (needsID ? 1 : 0) {
            return needsID ? "\(action) needs exactly one application ID" : "unexpected argument \(rest.first!)"
        }
        if action == "create", parsed.value("name") == nil { return "create needs --name" }
        let settings = settingFlags.filter { parsed.value($0) != nil }
        let atCreate = Set(DropInFaces.settings.filter { $0.kind == .setting }.map(\.option))
        if action == "create", let other = settings.sorted().first(where: { !atCreate.contains($0) }) {
            return "create takes no --\(other); use set"
        }
        if action != "create", parsed.value("name") != nil || parsed.has("json") {
            return "--name and --json go with create"
        }
        if action == "list" || action == "revoke", !settings.isEmpty { return "\(action) takes no settings" }
        if action == "set", settings.isEmpty { return "set needs at least one setting" }
        return nil
    }

    private static func create(_ manager: ApplicationManager, _ parsed: Arguments,
                               _ context: CommandContext) async throws -> Int32 {
        let change = try AppsSetCommand.faceSettings(parsed, into: ApplicationChange())
        let (application, credentials) = try await manager.create(name: parsed.value("name") ?? "", change)
        if parsed.has("json") {
            context.print(credentials.json(for: application))
            return 0
        }
        context.print("""
            Created application \(application.id) (\(application.name)).
            Tacit API key:  \(credentials.apiKey)
            \(credentials.faces.map(faceLines).joined(separator: "\n"))
            This is the only time the secrets are shown; store them now.
            """)
        return 0
    }

    private static func list(_ manager: ApplicationManager, _ context: CommandContext) async throws -> Int32 {
        let keyed = DropInFaces.all.filter { face in face.settings.contains(where: \.valueFromFile) }
        let header = ["ID", "NAME", "CREATED", "REVOKED", "BRAND", "CODE LENGTH", "CHANNEL TIMEOUT", "SMS APP HASH",
                      "SMS ORIGIN", "FRAUD LEVEL"]
            + keyed.map { "\($0.name.uppercased()) KEY" }
        context.print(header.joined(separator: "\t"))
        for application in try await manager.list() {
            let s = application.settings
            let dates = [application.createdAt, application.revokedAt].map { date in
                date.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
            }
            var fields = [s.brand ?? "-", s.codeLength.map(String.init) ?? "-",
                          s.channelTimeout.map(String.init) ?? "-", s.smsAppHash ?? "-", s.smsOrigin ?? "-",
                          s.fraudLevel.rawValue]
            for face in keyed {
                let records = try await manager.faceRecords(of: application.id, face: face.name)
                let key = face.settings.first(where: \.valueFromFile).flatMap { records.named($0.name) }
                fields.append(key == nil ? "-" : "registered")
            }
            context.print(([application.id, application.name] + dates + fields).joined(separator: "\t"))
        }
        return 0
    }

    /// A face's credentials as `create` prints them: the face's name, then name and value pairs.
    private static func faceLines(_ face: (face: String, credentials: IssuedFaceCredentials)) -> String {
        let title = (face.face.prefix(1).uppercased() + face.face.dropFirst() + ":").padding(toLength: 16, withPad: " ",
                                                                                         startingAt: 0)
        let pairs = face.credentials.shown.map { "\($0.name) \($0.value)" }
        return title + pairs.joined(separator: "  ")
    }

    private static func revoke(_ manager: ApplicationManager, id: String,
                               _ context: CommandContext) async throws -> Int32 {
        guard try await manager.revoke(id: id) else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        context.print("Revoked application \(id) and every credential of it.")
        return 0
    }

    /// The PEM text of the file `path` names.
    static func readKeyFile(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Arguments.UsageError(message: "--vonage-public-key: cannot read \(path)")
        }
        return text
    }
}
