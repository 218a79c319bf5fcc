import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// `tacit keys reseal` reaches what the send outbox still owes and `--dev`'s provider
/// state, so the older key can go without leaving codes or dev fields only it opens.
@Suite("Reseal: owed codes and dev state", .timeLimit(.minutes(1)))
struct OwedResealTests {
    enum Kind: String, CaseIterable, Sendable { case sqlite, postgres }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let old = Array(repeating: UInt8(1), count: 32), new = Array(repeating: UInt8(2), count: 32)

    static func open(_ kind: Kind, _ directory: URL, _ url: String?) throws -> any VerificationStore & ResealableStore
        & DevStateStore & SendOutboxStore {
        switch kind {
        case .sqlite: try SQLiteVerificationStore(path: directory.appendingPathComponent("tacit.db").path)
        case .postgres: PostgresVerificationStore(url: url!, poolSize: 2)
        }
    }

    @Test("a queued code, a gateway session, an inbox message and a dev secret are sealed again under the newest key, after which the newest key alone opens each", arguments: Kind.allCases.filter {
              $0 == .sqlite || PostgresCluster.enabled })
    func resealsOwedCodesAndDevState(kind: Kind) async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = kind == .postgres ? try await PostgresCluster.shared().makeSchema() : nil
        let before = ServerSecrets(master: Self.old).fieldProtection
        let first = try Self.open(kind, directory, url)
        try await first.migrate()
        first.protect(with: before)
        let state = VerificationState.pending(ActiveStep(index: 0, deadline: Self.now.addingTimeInterval(60)))
        var verification = Verification(id: "ver_owed", phoneNumber: "+99012345670",
                                        options: VerificationOptions(workflow: [.sms]), clientTokenHash: [7, 7],
                                        createdAt: Self.now, state: state)
        verification.workflow[0].status = .active
        let send = QueuedSend(id: QueuedSend.key(verificationId: "ver_owed", step: 0), verificationId: "ver_owed",
                              step: 0, channel: "sms", sealedCode: try before.seal(Array("ver_owed:0:123456".utf8)),
                              createdAt: Self.now)
        _ = try await first.insert(verification, events: [], outbox: [], sends: [send], at: Self.now,
                                   idempotency: nil)
        try await first.openGatewaySession(id: "gw_1", DevGatewaySession(
            number: "+99012345670", redirectURI: nil, expiresAt: Self.now.addingTimeInterval(300)))
        try await first.appendInboxMessage(DevInboxMessage(channel: "sms", body: "Your code is 123456", at: "t"),
                                           to: "+99012345670", keeping: 10)
        let secret = try await first.devSecret("operator-key", proposed: Array(repeating: 5, count: 32))

        let rotated = ServerSecrets(ring: KeyRing([MasterKey(Self.new), MasterKey(Self.old)], source: .ephemeral))
        let second = try Self.open(kind, directory, url)
        second.protect(with: rotated.fieldProtection)
        let report = try await second.reseal(current: rotated.fieldProtection.currentHeader)
        #expect(report.sendCodes == 1)
        #expect(report.devFields == 3)
        #expect(report.remaining == 0)

        let newest = ServerSecrets(master: Self.new).fieldProtection
        let third = try Self.open(kind, directory, url)
        third.protect(with: newest)
        let queued = try #require(try await third.queuedSends(verificationId: "ver_owed").first)
        #expect(try newest.open(queued.sealedCode) == Array("ver_owed:0:123456".utf8))
        let claim = try await third.claimGatewaySession(id: "gw_1", now: Self.now) { _ in true }
        #expect(claim == .fresh(DevGatewaySession(number: "+99012345670", redirectURI: nil,
                                                  expiresAt: Self.now.addingTimeInterval(300), used: false)))
        #expect(try await third.devSecret("operator-key", proposed: [9]) == secret,
                "the secret opens, so it is not replaced")
        // The inbox's index is a keyed hash of the number, which reseal never holds: the
        // body is sealed under the newest key, and the message is found while the older
        // key is still in the ring to compute the index it was filed under.
        let withOld = try Self.open(kind, directory, url)
        withOld.protect(with: rotated.fieldProtection)
        #expect(try await withOld.inboxMessages(for: "+99012345670").map(\.body) == ["Your code is 123456"])
    }
}
