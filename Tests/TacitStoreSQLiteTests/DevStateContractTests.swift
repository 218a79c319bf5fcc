import Foundation
import Testing
import TacitStore
import TacitStorePostgres
import TacitStoreSQLite
import TacitTesting

/// The dev-state half of the store contract: the virtual operator's gateway sessions,
/// the handsets' inboxes and the operator's key, as every store keeps them.
@Suite("Store contract: dev state")
struct DevStateContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now
    static let number = "+99012345670"

    static func make(_ kind: Kind) async throws -> (any DevStateStore, String?) {
        let (store, path) = try await StoreContractTests.make(kind)
        return (try #require(store as? any DevStateStore), path)
    }

    static func session(expiresIn seconds: TimeInterval = 60) -> DevGatewaySession {
        DevGatewaySession(number: number, redirectURI: "http://127.0.0.1:9/cb", expiresAt: now + seconds)
    }

    @Test("a gateway session is claimed once: then it is a replay; late it is expired; an unknown id is unknown", arguments: Kind.allCases)
    func claims(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        try await store.openGatewaySession(id: "s1", Self.session())
        #expect(try await store.claimGatewaySession(id: "s1", now: Self.now + 1) { _ in true } == .fresh(Self.session()))
        var used = Self.session()
        used.used = true
        #expect(try await store.claimGatewaySession(id: "s1", now: Self.now + 2) { _ in true } == .replayed(used))
        try await store.openGatewaySession(id: "late", Self.session())
        #expect(try await store.claimGatewaySession(id: "late", now: Self.now + 61) { _ in true } == .expired(Self.session()))
        #expect(try await store.claimGatewaySession(id: "nope", now: Self.now) { _ in true } == .unknown)
    }

    @Test("a claim its check refuses spends nothing: the session is still fresh for the next claim", arguments: Kind.allCases)
    func refusedClaimSpendsNothing(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        try await store.openGatewaySession(id: "s1", DevGatewaySession(number: Self.number, redirectURI: nil, expiresAt: Self.now + 60))
        #expect(try await store.claimGatewaySession(id: "s1", now: Self.now) { $0.redirectURI != nil } == .refused)
        let claim = try await store.claimGatewaySession(id: "s1", now: Self.now) { _ in true }
        #expect(claim == .fresh(DevGatewaySession(number: Self.number, redirectURI: nil, expiresAt: Self.now + 60)))
    }

    @Test("of 20 parallel claims of one session exactly one is fresh, the others replays", arguments: Kind.allCases)
    func parallelClaims(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        try await store.openGatewaySession(id: "s1", Self.session())
        let fresh = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    if case .fresh = try await store.claimGatewaySession(id: "s1", now: Self.now) { _ in true } { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(fresh == 1)
    }

    @Test("the sweep forgets sessions expired before the cutoff and keeps the others", arguments: Kind.allCases)
    func sweep(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        try await store.openGatewaySession(id: "old", Self.session(expiresIn: 10))
        try await store.openGatewaySession(id: "live", Self.session(expiresIn: 100))
        #expect(try await store.sweepGatewaySessions(expiredBefore: Self.now + 50) == 1)
        #expect(try await store.claimGatewaySession(id: "old", now: Self.now) { _ in true } == .unknown)
        #expect(try await store.claimGatewaySession(id: "live", now: Self.now) { _ in true } == .fresh(Self.session(expiresIn: 100)))
    }

    @Test("an inbox keeps its newest messages oldest first, apart from other numbers' inboxes", arguments: Kind.allCases)
    func inbox(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        for index in 0..<5 {
            try await store.appendInboxMessage(DevInboxMessage(channel: "sms", body: "code \(index)", at: "t\(index)"), to: Self.number, keeping: 3)
        }
        try await store.appendInboxMessage(DevInboxMessage(channel: "voice", body: "other", at: "t9"), to: "+99012345671", keeping: 3)
        #expect(try await store.inboxMessages(for: Self.number).map(\.body) == ["code 2", "code 3", "code 4"])
        #expect(try await store.inboxMessages(for: "+99012345671") == [DevInboxMessage(channel: "voice", body: "other", at: "t9")])
        #expect(try await store.inboxMessages(for: "+99012345672").isEmpty)
    }

    @Test("the first secret proposed for a name is the one every later proposal reads back", arguments: Kind.allCases)
    func secrets(kind: Kind) async throws {
        let (store, _) = try await Self.make(kind)
        let first = try await store.devSecret("operator", proposed: [1, 2, 3])
        #expect(first == [1, 2, 3])
        #expect(try await store.devSecret("operator", proposed: [4, 5, 6]) == [1, 2, 3])
        #expect(try await store.devSecret("other", proposed: [7]) == [7])
    }

    @Test("the SQLite file holds the session's number, the message body and the secret only sealed")
    func sealedAtRest() async throws {
        let (store, path) = try await Self.make(.sqlite)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path! + suffix) } }
        try await store.openGatewaySession(id: "s1", Self.session())
        try await store.appendInboxMessage(DevInboxMessage(channel: "sms", body: "Your code is 123456", at: "t"), to: Self.number, keeping: 3)
        _ = try await store.devSecret("operator", proposed: Array("operator-secret-bytes".utf8))
        let connection = try SQLiteConnection(path: path!)
        defer { connection.close() }
        var stored: [[UInt8]] = []
        for table in ["dev_gateway_sessions", "dev_inbox", "dev_secrets"] {
            for row in try connection.query(SQL(stringLiteral: "SELECT * FROM \(table)")) {
                for value in row.values {
                    if case .text(let text) = value { stored.append(Array(text.utf8)) }
                    if case .blob(let bytes) = value { stored.append(bytes) }
                }
            }
        }
        #expect(stored.count > 5)
        for secret in [Self.number, "123456", "operator-secret-bytes"] {
            #expect(!stored.contains { String(decoding: $0, as: UTF8.self).contains(secret) }, "\(secret.count) characters in clear")
        }
    }
}
