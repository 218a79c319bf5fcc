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
    let seconds: Int
    let workers: Int
    let directory: URL
    let store: SQLiteVerificationStore
    let application: TacitApplication
    /// Numbers handed to creates, each used once.
    let numbers = Atomic<Int>(0)

    init(rows: Int, seconds: Int, workers: Int) throws {
        (self.rows, self.seconds, self.workers) = (rows, seconds, workers)
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
        var before: Double, during: Double, after: Double
        var sweepSeconds: Double
        var swept: Int, rows: Int
        var ratio: Double { during / ((before + after) / 2) }
        var passed: Bool { ratio >= 0.9 && swept == rows }
        var description: String {
            """
            creates alone (before): \(Int(before)) /s
            creates during the sweep: \(Int(during)) /s over \(String(format: "%.1f", sweepSeconds)) s, \(swept) of \(rows) finished verifications deleted
            creates alone (after): \(Int(after)) /s
            ratio during / alone: \(String(format: "%.3f", ratio)) (target >= 0.90): \(passed ? "ok" : "MISSED")
            """
        }
    }

    func run() async throws -> Report {
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [application] in try await application.run(serving: .inProcess) }
            _ = try await application.listening()
            try await fill()
            _ = await creates(for: 1)
            let before = await creates(for: Double(seconds))
            let sweep = Task { await application.sweepNow() }
            let during = await creates(until: sweep)
            let after = await creates(for: Double(seconds))
            let swept = await sweptVerifications()
            group.cancelAll()
            return Report(before: before.rate, during: during.rate, after: after.rate,
                          sweepSeconds: during.seconds, swept: swept, rows: rows)
        }
    }
}
