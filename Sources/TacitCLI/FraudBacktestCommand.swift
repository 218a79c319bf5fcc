import Foundation
import TacitServer
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite

/// `tacit fraud backtest APP --level L [--days N] [--json]`: what a protection level's automatic
/// rules would have blocked of the application's stored verifications (docs/fraud.md#backtest).
/// It only reads: a SQLite file is opened read-only and never migrated, the keys are read and
/// no fingerprint recorded. Prefixes only are printed, never a number.
enum FraudBacktestCommand {
    static let valued: Set<String> = ["level", "days"]
    static let flags: Set<String> = ["json"]
    static let defaultDays = 7

    /// What is wrong with how `backtest` was called, if anything; an unknown level is no misuse
    /// but a refusal (exit 1), as `apps set --fraud-level` refuses one.
    static func misuse(_ parsed: Arguments) -> String? {
        if parsed.positional.count != 2 { return "fraud backtest needs exactly one application ID" }
        if parsed.value("level") == nil { return "fraud backtest needs --level off|basic|standard|max" }
        if let days = parsed.value("days"), (Int(days) ?? 0) < 1 { return "--days must be a whole number above 0" }
        return nil
    }

    static func run(_ parsed: Arguments, _ context: CommandContext) async throws -> Int32 {
        if let misuse = misuse(parsed) { throw Arguments.UsageError(message: misuse) }
        let id = parsed.positional[1]
        let levelText = parsed.value("level") ?? ""
        guard let level = FraudLevel(rawValue: levelText) else {
            context.printError("tacit fraud: --level must be off, basic, standard or max, not \(levelText)")
            return 1
        }
        let days = parsed.value("days").flatMap { Int($0) } ?? defaultDays
        do {
            let configuration = try ServerSettings.configuration(parsed, environment: context.environment)
            guard let store = try openReadOnly(configuration, context) else { return 1 }
            guard let applications = store as? any ApplicationStore,
                  try await applications.application(id: id) != nil else {
                context.printError("tacit fraud: no application has the id \(id)")
                return 1
            }
            guard let history = store as? any VerificationHistoryStore else {
                context.printError("tacit fraud: this store can't list its verifications")
                return 1
            }
            var production = configuration
            production.dev = false
            let ring = try await KeyRing.loadReadOnly(configuration: production, store: store)
            store.protect(with: ServerSecrets(ring: ring).fieldProtection)
            let report = try await FraudBacktest.run(store: history, application: id, level: level, days: days,
                                                     now: Date(),
                                                     judgesVirtualRange: configuration.security.limitVirtualRange)
            if parsed.has("json") {
                try printJSON(report, context)
            } else {
                printText(report, days: days, context)
            }
            return 0
        } catch let error as Arguments.UsageError {
            throw error
        } catch {
            context.printError("tacit fraud: \(error)")
            return 1
        }
    }

    /// The store the settings name, opened so that nothing can be written: a SQLite file must
    /// exist already (opening would create it) and its connections refuse writes; PostgreSQL is
    /// only read. Neither is migrated. nil, said on stderr, when there is no such file.
    private static func openReadOnly(_ configuration: ServerConfiguration,
                                     _ context: CommandContext) throws -> (any VerificationStore)? {
        if let url = configuration.databaseURL { return PostgresVerificationStore(url: url) }
        let path = configuration.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            context.printError("tacit fraud: no database at \(path)")
            return nil
        }
        return try SQLiteVerificationStore(path: path, options: SQLiteOptions(readOnly: true))
    }

    static func printText(_ report: FraudBacktest.Report, days: Int, _ context: CommandContext) {
        let format = ISO8601DateFormatter()
        let span = "from \(format.string(from: report.since)) to \(format.string(from: report.until))"
        context.print("Backtest of application \(report.application) at level \(report.level.rawValue), the"
                      + " \(days) days \(span).")
        context.print("Replayed \(report.starts) starts and \(report.sends) sends.")
        context.print("Would have blocked \(report.blockedStarts) starts\(share(report.blockedStarts, report.starts))"
                      + " and \(report.blockedSends) sends\(share(report.blockedSends, report.sends));"
                      + " \(report.blockedConverted) of the blocked starts had converted.")
        context.print("Prefix blocks decided: \(report.blocksDecided).")
        context.print()
        context.print(["PREFIX", "RULE", "STARTS", "CONVERTED", "SENDS SAVED"].joined(separator: "\t"))
        for row in report.rows {
            context.print(["+" + row.prefix, row.rule, String(row.starts), String(row.converted), String(row.sends)]
                .joined(separator: "\t"))
        }
    }

    /// ` (12.5 %)`, or nothing when there is nothing to share.
    private static func share(_ part: Int, _ whole: Int) -> String {
        whole > 0 ? String(format: " (%.1f %%)", Double(part) * 100 / Double(whole)) : ""
    }

    static func printJSON(_ report: FraudBacktest.Report, _ context: CommandContext) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        context.print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
