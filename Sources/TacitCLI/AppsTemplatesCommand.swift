import Foundation
import TacitCore
import TacitServer
import TacitStore

/// `tacit apps templates set|list|delete APP …`: an application's message templates in the
/// store `tacit serve` uses, checked by the same rules as `PUT /v1/templates/{channel}/{locale}`
/// (docs/locales.md#templates). A running server reads a change at its next message.
enum AppsTemplatesCommand {
    static let flags: Set<String> = ["channel", "locale", "subject"]

    /// What is wrong with how `templates` was called, if anything.
    static func misuse(_ parsed: Arguments) -> String? {
        let rest = Array(parsed.positional.dropFirst())
        guard let action = rest.first, ["set", "list", "delete"].contains(action) else {
            return rest.first.map { "unknown templates command \($0)" } ?? "templates needs set, list or delete"
        }
        let given = flags.filter { parsed.value($0) != nil }
        switch action {
        case "set":
            if rest.count != 3 { return "templates set needs an application ID and the template's text" }
            if parsed.value("channel") == nil || parsed.value("locale") == nil {
                return "templates set needs --channel and --locale"
            }
        case "delete":
            if rest.count != 2 { return "templates delete needs exactly one application ID" }
            if parsed.value("channel") == nil || parsed.value("locale") == nil {
                return "templates delete needs --channel and --locale"
            }
            if parsed.value("subject") != nil { return "templates delete takes no --subject" }
        default:
            if rest.count != 2 { return "templates list needs exactly one application ID" }
            if let flag = given.sorted().first { return "templates list takes no --\(flag)" }
        }
        return nil
    }

    static func run(_ store: any VerificationStore, _ parsed: Arguments, _ context: CommandContext) async throws
        -> Int32 {
        let rest = Array(parsed.positional.dropFirst(2))
        let id = rest[0]
        guard let manager = TemplateManager(store: store), let applications = store as? any ApplicationStore else {
            context.printError("tacit apps: this store keeps no templates")
            return 1
        }
        guard try await applications.application(id: id) != nil else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        let channel = parsed.value("channel") ?? "", locale = parsed.value("locale") ?? ""
        switch parsed.positional[1] {
        case "set":
            do {
                let listing = try await manager.set(application: id, channel: channel, locale: locale, body: rest[1],
                                                    subject: parsed.value("subject"))
                context.print("Set the \(channel) template for \(locale.lowercased()) of application \(id)"
                              + (listing.flatMap(\.encoding).map { " (\(describe($0)))" } ?? "") + ".")
                return 0
            } catch let refusal as TemplateManager.Refusal {
                context.printError("tacit apps: template refused: \(refusal)")
                return 1
            }
        case "delete":
            guard try await manager.delete(application: id, channel: channel, locale: locale) else {
                context.printError("tacit apps: application \(id) has no \(channel) template for \(locale)")
                return 1
            }
            context.print("Deleted the \(channel) template for \(locale.lowercased()) of application \(id).")
            return 0
        default:
            context.print(["CHANNEL", "LOCALE", "ENCODING", "SEGMENTS", "UPDATED", "BODY"].joined(separator: "\t"))
            for listing in try await manager.list(application: id) {
                let template = listing.template
                let body = (template.subject.map { "[\($0)] " } ?? "") + template.body
                context.print([template.channel, template.locale, listing.encoding?.alphabet.rawValue ?? "-",
                               listing.encoding.map { String($0.segments) } ?? "-",
                               ISO8601DateFormatter().string(from: template.updatedAt),
                               body.replacingOccurrences(of: "\n", with: "\\n")].joined(separator: "\t"))
            }
            return 0
        }
    }

    private static func describe(_ encoding: SMSEncoding) -> String {
        "\(encoding.alphabet.rawValue), \(encoding.segments) segment\(encoding.segments == 1 ? "" : "s")"
    }
}
