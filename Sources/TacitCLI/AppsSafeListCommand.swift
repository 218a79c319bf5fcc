import Foundation
import TacitServer
import TacitStore

/// `tacit apps safe-list add|list|remove APP [ENTRY]`: numbers and prefixes whose starts skip
/// the automatic fraud rules (docs/fraud.md#safe-list-and-risk_check). A running server reads a
/// change within a second.
enum AppsSafeListCommand {
    /// What is wrong with how `safe-list` was called, if anything.
    static func misuse(_ parsed: Arguments) -> String? {
        let rest = Array(parsed.positional.dropFirst())
        guard let action = rest.first, ["add", "list", "remove"].contains(action) else {
            return rest.first.map { "unknown safe-list command \($0)" } ?? "safe-list needs add, list or remove"
        }
        if action == "list" { return rest.count == 2 ? nil : "safe-list list needs exactly one application ID" }
        return rest.count == 3 ? nil : "safe-list \(action) needs an application ID and a number or prefix"
    }

    static func run(_ store: any VerificationStore, _ parsed: Arguments, _ context: CommandContext) async throws
        -> Int32 {
        let rest = Array(parsed.positional.dropFirst(2))
        let id = rest[0]
        guard let applications = store as? any ApplicationStore,
              try await applications.application(id: id) != nil else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        guard let manager = SafeListManager(store: store) else {
            context.printError("tacit apps: this store keeps no safe lists")
            return 1
        }
        switch parsed.positional[1] {
        case "add":
            do {
                guard let entry = try await manager.add(application: id, entry: rest[1], now: Date()) else {
                    context.printError("tacit apps: no application has the id \(id)")
                    return 1
                }
                context.print("Added \(entry) to the safe list of application \(id); its starts skip the automatic"
                                  + " fraud rules.")
                return 0
            } catch let refusal as SafeListManager.Refusal {
                context.printError("tacit apps: safe-list entry refused: \(refusal)")
                return 1
            }
        case "remove":
            guard try await manager.remove(application: id, entry: rest[1]) else {
                context.printError("tacit apps: application \(id) has no such safe-list entry")
                return 1
            }
            context.print("Removed the entry from the safe list of application \(id).")
            return 0
        default:
            context.print(["ENTRY", "KIND", "ADDED"].joined(separator: "\t"))
            let format = ISO8601DateFormatter()
            for entry in try await manager.list(application: id) {
                context.print([entry.entry, entry.isPrefix ? "prefix" : "number",
                               format.string(from: entry.createdAt)].joined(separator: "\t"))
            }
            return 0
        }
    }
}
