import Foundation
import Synchronization
import TacitCore
import TacitHTTP
import TacitProvidersDev
import TacitServer
import TacitStore
import TacitStoreSQLite

/// The benchmark's phases over one in-process application (see main.swift).
final class RetentionBench: Sendable {
    let rows: Int
    let rounds: Int
    let seconds: Int
    let workers: Int
    let directory: URL
    let store: SQLiteVerificationStore
    let application: TacitApplication
    /// Numbers handed to creates, each used once.
    let numbers = Atomic<Int>(0)

    init(rows: Int, rounds: Int, seconds: Int, workers: Int) throws {
        (self.rows, self.rounds, self.seconds, self.workers) = (rows, max(1, rounds), seconds, workers)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-retention-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.dev = true
        configuration.secret = "bench-secret"
        configuration.databasePath = directory.appendingPathComponent("tacit.db").path
        // The bench runs the one round it measures; the housekeeper's own never comes.
        configuration.housekeepingInterval = 100 * 365 * 86_400
        store = try SQLiteVerificationStore(path: configuration.databasePath)
        var dependencies = TacitApplication.Dependencies()
        DevProviders.wire(into: &dependencies, configuration: configuration)
        application = TacitApplication(configuration: configuration, store: store, dependencies: dependencies)
    }

    struct Report: CustomStringConvertible {
        var alone = Phase(count: 0, seconds: 0)
        var during = Phase(count: 0, seconds: 0)
        var swept = 0, rows = 0, rounds = 0
        var ratio: Double { alone.rate > 0 ? during.rate / alone.rate : 0 }
        var passed: Bool { ratio >= 0.9 && swept == rows }
        var description: String {
            """
            creates alone: \(Int(alone.rate)) /s over \(String(format: "%.1f", alone.seconds)) s
            creates during the sweeps: \(Int(during.rate)) /s over \(String(format: "%.1f", during.seconds)) s, \
            \(swept) of \(rows) finished verifications deleted in \(rounds) round(s)
            ratio during / alone: \(String(format: "%.3f", ratio)) (target >= 0.90): \(passed ? "ok" : "MISSED")
            """
        }
    }

    /// Each round fills `rows / rounds` finished verifications, then measures creates alone,
    /// creates during the round's sweep and creates alone again, so the two see the same
    /// neighbours, the same database size and the same number of pending verifications.
    func run() async throws -> Report {
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [application] in try await application.run(serving: .inProcess) }
            _ = try await application.listening()
            var report = Report(rows: rows, rounds: rounds)
            for round in 0..<rounds {
                try await fill(round * rows / rounds..<(round + 1) * rows / rounds)
                // The fill's checkpoints and the first creates' page faults are left out.
                try await Task.sleep(for: .seconds(2))
                _ = await creates(for: 1)
                let alone = await creates(for: Double(seconds))
                let sweep = Task { [application] in await application.sweepNow() }
                let during = await creates(until: sweep)
                // Alone again, after the sweep: the fill's aftermath weighs on the window before it only.
                let afterwards = await creates(for: Double(seconds))
                report.alone.add(alone)
                report.alone.add(afterwards)
                report.during.add(during)
            }
            report.swept = await sweptVerifications()
            group.cancelAll()
            return report
        }
    }
}
