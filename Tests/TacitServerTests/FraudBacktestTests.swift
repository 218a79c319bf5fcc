import Foundation
import Testing
@testable import TacitServer
import TacitCore
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// The backtest's replay of a stored history (docs/fraud.md#backtest): an attack range among
/// converting users, stored in SQLite and replayed at each level, without writing to the store.
@Suite("Fraud backtest", .timeLimit(.minutes(1)))
struct FraudBacktestTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let application = "app_backtest"

    /// A SQLite file holding the pumping history, ending `ago` before `now`.
    static func stored(ago: TimeInterval = 0) async throws -> (store: SQLiteVerificationStore, path: String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("backtest-\(UUID().uuidString).db").path
        let store = try SQLiteVerificationStore(path: path)
        try await store.migrate()
        store.protect(with: RetentionSweepTests.Protection())
        for verification in PumpingHistory.verifications(application: application, end: now.addingTimeInterval(-ago)) {
            _ = try await store.insert(verification, events: [], at: verification.createdAt, idempotency: nil)
        }
        // Another application's attack is not this one's history.
        let other = PumpingHistory.verification("other", "+447911139999", application: "app_other", at: now - 60,
                                                lineType: "mobile", converts: false)
        _ = try await store.insert(other, events: [], at: other.createdAt, idempotency: nil)
        return (store, path)
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func run(_ store: SQLiteVerificationStore, _ level: FraudLevel, days: Int = 7) async throws
        -> FraudBacktest.Report {
        try await FraudBacktest.run(store: store, application: application, level: level, days: days, now: now)
    }

    @Test("at standard the attack range is named and blocked after its first ten starts, no converting user outside it")
    func standard() async throws {
        let (store, path) = try await Self.stored()
        defer { Self.remove(path) }
        let report = try await Self.run(store, .standard)
        #expect(report.starts == PumpingHistory.legitimateStarts + PumpingHistory.attackStarts)
        #expect(report.sends == report.starts)
        #expect(report.rows == [FraudBacktest.Row(prefix: PumpingHistory.attackPrefix, rule: "prefix_volume",
                                                  starts: 140, converted: 1, sends: 140)])
        #expect(report.blockedStarts == 140 && report.blockedSends == 140)
        // The one converting start counted is the real person inside the attacked range.
        #expect(report.blockedConverted == 1)
        #expect(report.blocksDecided == 1)
    }

    @Test("off blocks nothing; max blocks at least what standard does, and the VoIP user too")
    func levels() async throws {
        let (store, path) = try await Self.stored()
        defer { Self.remove(path) }
        let off = try await Self.run(store, .off)
        #expect(off.blockedStarts == 0 && off.blockedSends == 0 && off.rows.isEmpty && off.blocksDecided == 0)
        #expect(off.starts == PumpingHistory.legitimateStarts + PumpingHistory.attackStarts)
        let standard = try await Self.run(store, .standard)
        let max = try await Self.run(store, .max)
        #expect(max.blockedStarts >= standard.blockedStarts)
        // Five unconverted sends are enough at max, where standard needs ten.
        #expect(max.rows.first == FraudBacktest.Row(prefix: PumpingHistory.attackPrefix, rule: "prefix_volume",
                                                    starts: 145, converted: 1, sends: 145))
        #expect(max.rows.contains { $0.rule == "line_type" && $0.prefix == "1415" && $0.converted == 1 })
        #expect(max.blockedConverted == 2)
        let basic = try await Self.run(store, .basic)
        #expect(basic.blockedStarts <= standard.blockedStarts)
    }

    @Test("a block expires and repeats longer: an attack past the hour meets a 6-hour second block")
    func repeats() async {
        let base = Self.now
        // One start every 2 minutes for 3 hours in one range, none converting.
        let starts = (0..<90).map { index in
            FraudBacktest.Start(id: "a\(index)", phoneNumber: "+44791113" + String(format: "%04d", index),
                                createdAt: base.addingTimeInterval(Double(index) * 120),
                                sends: [base.addingTimeInterval(Double(index) * 120 + 1)])
        }
        let report = await FraudBacktest(level: .standard).replay(starts, application: "a", since: base,
                                                                  until: base + 3 * 3_600)
        // 10 through, blocked 1 h (30 starts), then after it ends 10 through again (figures from
        // before the block have left the window), then a 6-hour block holds the rest.
        #expect(report.blocksDecided == 2)
        #expect(report.blockedStarts == 90 - 20)
    }

    @Test("the safe list and test numbers are honoured as live: no block decided by them or for them")
    func safeListAndTestNumbers() async {
        let base = Self.now
        let starts = (0..<30).map { index in
            FraudBacktest.Start(id: "a\(index)", phoneNumber: "+44791113" + String(format: "%04d", index),
                                createdAt: base.addingTimeInterval(Double(index) * 20),
                                sends: [base.addingTimeInterval(Double(index) * 20 + 1)])
        }
        let listed = FraudBacktest(level: .standard, safeList: [SafeListEntry(applicationId: "a", entry: "+4479111*",
                                                                              createdAt: base)])
        #expect(await listed.replay(starts, application: "a", since: base, until: base + 600).blockedStarts == 0)
        let tests = starts.map { start in
            var start = start
            start.isTestNumber = true
            start.sends = []
            return start
        }
        #expect(await FraudBacktest(level: .max).replay(tests, application: "a", since: base, until: base + 600)
            .blockedStarts == 0)
    }

    @Test("--days leaves out older history")
    func days() async throws {
        let (store, path) = try await Self.stored(ago: 8 * 86_400)
        defer { Self.remove(path) }
        let week = try await Self.run(store, .standard)
        #expect(week.starts == 0 && week.blockedStarts == 0)
        let longer = try await Self.run(store, .standard, days: 9)
        #expect(longer.blockedStarts == 140)
    }

    @Test("a replay writes nothing to the store: every row of every table is the same afterwards")
    func readOnly() async throws {
        let (store, path) = try await Self.stored()
        defer { Self.remove(path) }
        let before = try Self.everyRow(path)
        _ = try await Self.run(store, .max)
        #expect(try Self.everyRow(path) == before)
        #expect(try await store.prefixBlocks(application: Self.application).isEmpty)
    }

    /// Every row of every table of the file, in a stable order.
    static func everyRow(_ path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, options: SQLiteOptions(readOnly: true))
        defer { connection.close() }
        var rows: [String] = []
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .map { try $0.string("name") }
        for table in tables {
            for row in try connection.query(SQL(stringLiteral: "SELECT * FROM \(table)")) {
                rows.append(table + ":" + row.values.map { "\($0)" }.joined(separator: "|"))
            }
        }
        return rows.sorted()
    }
}
