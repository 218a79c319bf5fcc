import Foundation
import TacitCore
import TacitServer
import TacitStore
import TacitStoreSQLite
import Testing
@testable import TacitCLI

/// `tacit serve` on SQLite holds its file alone: a second server on it is refused, so a
/// lease found in the file at start can only be a dead server's (docs/deploy.md). Run in process.
@Suite("Serve owns its SQLite file", .timeLimit(.minutes(1)))
struct ServeOwnershipTests {
    @Test("a second serve on a file another serve holds stops at once with exit 1 and why; the first keeps serving")
    func secondServerRefused() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("t.db").path
        let (second, first) = try await RunningCommand.serving(["--dev", "--port", "0", "--db", db]) { base in
            let second = await CommandRun.of(["serve", "--dev", "--port", "0", "--db", db])
            let health = try Data(contentsOf: URL(string: base + "/healthz")!)
            #expect(!health.isEmpty, "the first server still answers")
            return second
        }
        #expect(second.status == 1)
        #expect(second.err.contains("another tacit serve is running on \(db)") && second.err.contains("PostgreSQL"),
                "\(second.err)")
        #expect(!second.out.contains("listening"))
        #expect(first.status == 0, "\(first.err)")
        #expect(FileManager.default.fileExists(atPath: SQLiteServingLock.lockPath(db)))
        let (_, again) = try await RunningCommand.serving(["--dev", "--port", "0", "--db", db]) { _ in }
        #expect(again.status == 0, "the file is free once the first has stopped: \(again.err)")
    }

    @Test("the store a serve opens on a file a killed server left holds that server's leased sends due at once")
    func deadServersLeasesGivenBack() async throws {
        let directory = try StoreFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.databasePath = directory.appendingPathComponent("t.db").path
        let killedAt = Date()
        let row = try await Self.leasedSend(configuration, until: killedAt.addingTimeInterval(3_600))

        let (store, held) = try await StoreFactory.openForServing(configuration, now: killedAt)
        #expect(try await store.claimSends(now: killedAt, lease: 10, limit: 8).map(\.id) == [row.id],
                "the worker's first look finds it due, not an hour later")
        await #expect(throws: SQLiteServingLock.Taken.self) {
            _ = try await StoreFactory.openForServing(configuration, now: killedAt)
        }
        withExtendedLifetime(held) {}
    }

    /// A file holding one pending verification and its send, leased until `until` as a server
    /// killed mid-send leaves it; the send's row.
    static func leasedSend(_ configuration: ServerConfiguration, until: Date) async throws -> QueuedSend {
        let store = try SQLiteVerificationStore(path: configuration.databasePath)
        try await store.migrate()
        store.protect(with: try await ServerSecrets.load(configuration: configuration, store: store).fieldProtection)
        let now = until.addingTimeInterval(-3_600)
        var verification = Verification(id: "vf_killed", phoneNumber: "+99012345670",
                                        options: VerificationOptions(workflow: [.sms]), clientTokenHash: [7],
                                        createdAt: now, state: .pending(ActiveStep(index: 0, deadline: until)))
        verification.workflow[0].status = .active
        let row = QueuedSend(id: QueuedSend.key(verificationId: verification.id, step: 0),
                             verificationId: verification.id, step: 0, channel: "sms", sealedCode: [1, 2, 3],
                             createdAt: now, dueAt: until)
        _ = try await store.insert(verification, events: [], outbox: [], sends: [row], at: now, idempotency: nil)
        return row
    }
}
