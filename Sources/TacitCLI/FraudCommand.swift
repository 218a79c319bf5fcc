import Foundation
import TacitServer
import TacitStore

/// `tacit fraud blocks list|unblock APP [PREFIX]`: an application's automatic prefix blocks
/// (docs/fraud.md#prefix-blocks), in the store `tacit serve` uses. A running server lets an
/// unblocked prefix through within a second. `tacit fraud backtest` is `FraudBacktestCommand`.
enum FraudCommand: Command {
    static let usage = """
        Usage: tacit fraud blocks list APP [STORE]
               tacit fraud blocks unblock APP PREFIX [STORE]
               tacit fraud backtest APP --level off|basic|standard|max [--days N] [--json] [STORE]

        STORE: [--db PATH | --database-url URL] [--config FILE]
        (the same flags and TACIT_* variables as `tacit serve`).

        list prints the application's prefix blocks in force: the prefix, the rule that
        blocked it, until when, which block in a row it is, and the sends, conversions and
        baseline that decided it. unblock lifts one (PREFIX as +44791113): its starts go
        through, the rule leaves it alone for an hour, and its next block lasts an hour again.
        """

    static let name = "fraud"
    static var valued: Set<String> { KeysCommand.storeFlags.union(FraudBacktestCommand.valued) }
    static let flags: Set<String> = FraudBacktestCommand.flags

    static func run(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        let words = parsed.positional
        if words.first == "backtest" { return try await FraudBacktestCommand.run(parsed, context) }
        if let flag = FraudBacktestCommand.valued.union(FraudBacktestCommand.flags).sorted()
            .first(where: { parsed.value($0) != nil || parsed.has($0) }) {
            throw Arguments.UsageError(message: "fraud blocks takes no --\(flag)")
        }
        guard words.first == "blocks" else {
            throw Arguments.UsageError(message: words.first.map { "unknown fraud command \($0)" }
                                           ?? "no fraud command given")
        }
        guard words.count >= 2, ["list", "unblock"].contains(words[1]) else {
            throw Arguments.UsageError(message: "fraud blocks needs list or unblock")
        }
        let expected = words[1] == "list" ? 3 : 4
        guard words.count == expected else {
            throw Arguments.UsageError(message: words[1] == "list"
                                           ? "fraud blocks list needs exactly one application ID"
                                           : "fraud blocks unblock needs an application ID and a prefix")
        }
        let id = words[2]
        do {
            let configuration = try ServerSettings.configuration(parsed, environment: context.environment)
            let store = try StoreFactory.open(configuration)
            try await store.migrate()
            guard try await store.application(id: id) != nil else {
                context.printError("tacit fraud: no application has the id \(id)")
                return 1
            }
            guard let manager = PrefixBlockManager(store: store) else {
                context.printError("tacit fraud: this store keeps no prefix blocks")
                return 1
            }
            if words[1] == "unblock" { return try await unblock(manager, id: id, prefix: words[3], context) }
            context.print(["PREFIX", "RULE", "UNTIL", "STRIKES", "SENDS", "CONVERSIONS", "BASELINE"]
                .joined(separator: "\t"))
            let format = ISO8601DateFormatter()
            for block in try await manager.list(application: id) {
                context.print([block.shownPrefix, block.rule, format.string(from: block.blockedUntil),
                               String(block.strikes), String(block.sends), String(block.conversions),
                               block.baseline.map { String(format: "%.2f", $0) } ?? "-"].joined(separator: "\t"))
            }
            return 0
        } catch let error as Arguments.UsageError {
            throw error
        } catch {
            context.printError("tacit fraud: \(error)")
            return 1
        }
    }

    private static func unblock(_ manager: PrefixBlockManager, id: String, prefix: String,
                                _ context: CommandContext) async throws -> Int32 {
        do {
            guard try await manager.unblock(application: id, prefix: prefix) else {
                context.printError("tacit fraud: application \(id) has no block in force on \(prefix)")
                return 1
            }
            context.print("Unblocked \(prefix) for application \(id).")
            return 0
        } catch let refusal as PrefixBlockManager.Refusal {
            context.printError("tacit fraud: \(refusal)")
            return 1
        }
    }
}
