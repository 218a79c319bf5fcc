import Foundation
import TacitServer
import TacitStore

/// `tacit apps test-numbers add|list|remove APP …`: numbers an application verifies without
/// sending anything, with a fixed code (docs/fraud.md#test-numbers). The code is sealed with
/// the master key, so `add` loads the key ring as `tacit keys reseal` does; a running server
/// reads a change within a second.
enum AppsTestNumbersCommand {
    static let flags: Set<String> = ["code", "expires"]

    /// What is wrong with how `test-numbers` was called, if anything.
    static func misuse(_ parsed: Arguments) -> String? {
        let rest = Array(parsed.positional.dropFirst())
        guard let action = rest.first, ["add", "list", "remove"].contains(action) else {
            return rest.first.map { "unknown test-numbers command \($0)" } ?? "test-numbers needs add, list or remove"
        }
        let given = flags.filter { parsed.value($0) != nil }
        switch action {
        case "add":
            if rest.count != 3 { return "test-numbers add needs an application ID and a number" }
            if parsed.value("code") == nil { return "test-numbers add needs --code" }
            if let expires = parsed.value("expires"), TestNumberManager.seconds(expires) == nil {
                return "--expires must be a whole number then s, m, h or d (30d)"
            }
        case "remove":
            if rest.count != 3 { return "test-numbers remove needs an application ID and a number" }
            if let flag = given.sorted().first { return "test-numbers remove takes no --\(flag)" }
        default:
            if rest.count != 2 { return "test-numbers list needs exactly one application ID" }
            if let flag = given.sorted().first { return "test-numbers list takes no --\(flag)" }
        }
        return nil
    }

    static func run(_ store: any VerificationStore, _ parsed: Arguments, configuration: ServerConfiguration,
                    _ context: CommandContext) async throws -> Int32 {
        let rest = Array(parsed.positional.dropFirst(2))
        let id = rest[0]
        guard let applications = store as? any ApplicationStore,
              try await applications.application(id: id) != nil else {
            context.printError("tacit apps: no application has the id \(id)")
            return 1
        }
        let action = parsed.positional[1]
        // Only add seals; list and remove need no key.
        var seal: @Sendable ([UInt8]) throws -> [UInt8] = { _ in [] }
        if action == "add" {
            var production = configuration
            production.dev = false
            let secrets = try await ServerSecrets.load(configuration: production, store: store)
            seal = { try secrets.fieldProtection.seal($0) }
        }
        guard let manager = TestNumberManager(store: store, seal: seal) else {
            context.printError("tacit apps: this store keeps no test numbers")
            return 1
        }
        let now = Date()
        switch action {
        case "add":
            let expiresAt = parsed.value("expires").flatMap(TestNumberManager.seconds)
                .map { now.addingTimeInterval($0) }
            do {
                guard let number = try await manager.add(application: id, number: rest[1],
                                                         code: parsed.value("code") ?? "", expiresAt: expiresAt,
                                                         now: now) else {
                    context.printError("tacit apps: no application has the id \(id)")
                    return 1
                }
                let until = expiresAt.map { " until " + ISO8601DateFormatter().string(from: $0) } ?? ""
                context.print("Added test number \(number) to application \(id)\(until); its starts send nothing.")
                return 0
            } catch let refusal as TestNumberManager.Refusal {
                context.printError("tacit apps: test number refused: \(refusal)")
                return 1
            }
        case "remove":
            guard try await manager.remove(application: id, number: rest[1]) else {
                context.printError("tacit apps: application \(id) has no such test number")
                return 1
            }
            context.print("Removed the test number from application \(id).")
            return 0
        default:
            context.print(["NUMBER", "EXPIRES", "ACTIVE", "ADDED"].joined(separator: "\t"))
            let format = ISO8601DateFormatter()
            for test in try await manager.list(application: id) {
                context.print([test.phoneNumber, test.expiresAt.map(format.string(from:)) ?? "never",
                               test.isActive(at: now) ? "yes" : "expired",
                               format.string(from: test.createdAt)].joined(separator: "\t"))
            }
            return 0
        }
    }
}
