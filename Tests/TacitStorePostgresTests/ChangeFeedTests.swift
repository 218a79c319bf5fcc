import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitStorePostgres
import TacitTesting

/// The PostgreSQL change feed: what one instance's `listen` hears of another's commits.
@Suite("PostgreSQL change feed", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct ChangeFeedTests {
    static let now = TwoInstanceTests.now

    /// Runs `body` while `store` listens, with the notices it hears.
    static func listening<T>(_ store: PostgresVerificationStore, _ body: (AsyncStream<StoreNotice>) async throws -> T) async throws -> T {
        let (notices, continuation) = AsyncStream.makeStream(of: StoreNotice.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.listen { continuation.yield($0) } }
            defer { group.cancelAll() }
            return try await body(notices)
        }
    }

    /// The next notice, which should come at once.
    static func next(_ notices: AsyncStream<StoreNotice>) async throws -> StoreNotice? {
        try await within(10) {
            for await notice in notices { return notice }
            return nil
        }
    }

    static func stores() async throws -> (writer: PostgresVerificationStore, reader: PostgresVerificationStore, url: String) {
        let (writer, url) = try await PostgresCluster.makeStore()
        writer.protect(with: XORProtection())
        return (writer, PostgresVerificationStore(url: url), url)
    }

    @Test("a followed verification's commit is heard once with its id and new seqs, an enqueue as outbox; a write that rolled back or added no event is not heard")
    func hearsCommits() async throws {
        let (writer, reader, _) = try await Self.stores()
        try await Self.listening(reader) { notices in
            #expect(try await Self.next(notices) == .resync, "listening, the first time")
            let message = OutboxMessage(id: "wh_1", endpoint: "ep", verificationId: "a", type: "verification.cancelled", payload: [1],
                                        createdAt: Self.now)
            _ = try await writer.insert(TwoInstanceTests.verification("a"), events: [EventDraft("x:one", note: "one"), EventDraft("x:two", note: "two")],
                                        outbox: [message], at: Self.now, idempotency: nil)
            // A create's events have no follower yet: only its outbox row rings.
            #expect(try await Self.next(notices) == .outbox)
            try await reader.follow("a")
            _ = try await writer.update(id: "a", at: Self.now) { _ in StoreChange((), events: [EventDraft("x:three", note: "three")]) }
            #expect(try await Self.next(notices) == .events(verificationId: "a", after: 2, through: 3))

            // The second outbox row breaks the insert after its row, events and first outbox row were written.
            let twice = OutboxMessage(id: "wh_2", endpoint: "ep", verificationId: "b", type: "verification.cancelled", payload: [1], createdAt: Self.now)
            await #expect(throws: (any Error).self) {
                _ = try await writer.insert(TwoInstanceTests.verification("b", "+99012345671"), events: [EventDraft("x:one", note: "one")],
                                            outbox: [twice, twice], at: Self.now, idempotency: nil)
            }
            _ = try await writer.update(id: "a", at: Self.now) { v in
                v = TwoInstanceTests.verification("a", deadline: 90, lastSeq: v.lastSeq)
                return StoreChange(())
            }
            _ = try await writer.update(id: "a", at: Self.now) { _ in StoreChange((), events: [EventDraft("x:four", note: "four")]) }
            // Notifications arrive in commit order, so nothing else was sent before this one.
            #expect(try await Self.next(notices) == .events(verificationId: "a", after: 3, through: 4))
        }
    }

    @Test("notification payloads carry ids and seqs only: no number, code or sealed value")
    func payloadsHoldNoSecret() async throws {
        let (writer, _, url) = try await Self.stores()
        let number = "+99012345670", code = "482913"
        let (payloads, continuation) = AsyncStream.makeStream(of: String.self)
        let listener = PostgresListener(conninfo: url, channelQuery: PostgresSchema.changeChannelQuery)
        let heard = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await listener.run { event in
                    switch event {
                    case .listening: continuation.yield("")
                    case .notification(let payload): continuation.yield(payload)
                    }
                }
            }
            defer { group.cancelAll() }
            return try await within(10) {
                var heard: [String] = []
                for await payload in payloads {
                    if payload.isEmpty {
                        _ = try await writer.insert(TwoInstanceTests.verification("a", number), events: [EventDraft("x:one", note: "one")],
                                                    at: Self.now, idempotency: nil)
                        try await writer.follow("a")
                        _ = try await writer.update(id: "a", at: Self.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
                        _ = try await writer.update(id: "a", at: Self.now) { _ in
                            StoreChange((), events: [EventDraft("x:three", note: "three", data: ["phone_number": .phone(number), "code": .code(code)])])
                        }
                        continue
                    }
                    heard.append(payload)
                    if heard.count == 2 { break }
                }
                return heard
            }
        }
        #expect(heard == ["events a 1 2", "events a 2 3"])
        let sealed = XORProtection().seal(Array(number.utf8)).map { String(format: "%02x", $0) }.joined()
        for secret in [String(number.dropFirst()), code, sealed, "idx-"] {
            #expect(!heard.joined(separator: "\n").contains(secret))
        }
    }

    @Test("after its connection is ended, the feed connects again, says resync, and hears the next commit")
    func reconnects() async throws {
        let (writer, reader, url) = try await Self.stores()
        let admin = PostgresPool(conninfo: url, size: 1)
        try await Self.listening(reader) { notices in
            #expect(try await Self.next(notices) == .resync)
            let first = try #require(reader.listenerBackendPID)
            let ended = try await admin.withConnection { db in
                try db.query("SELECT pg_terminate_backend(\(Int(first))) AS ended").first?.bool("ended")
            }
            #expect(ended == true)
            #expect(try await Self.next(notices) == .resync, "listening again")
            #expect(reader.listenerBackendPID != first, "on a new connection")
            _ = try await writer.insert(TwoInstanceTests.verification("a"), events: [EventDraft("x:one", note: "one")], at: Self.now,
                                        idempotency: nil)
            try await writer.follow("a")
            _ = try await writer.update(id: "a", at: Self.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
            #expect(try await Self.next(notices) == .events(verificationId: "a", after: 1, through: 2))
        }
    }

    @Test("payloads read back as notices; anything else is ignored")
    func parsesPayloads() {
        #expect(PostgresVerificationStore.notice("events vf_1 2 5") == .events(verificationId: "vf_1", after: 2, through: 5))
        #expect(PostgresVerificationStore.notice("outbox") == .outbox)
        for payload in ["events vf_1 5 5", "events vf_1 x 5", "events vf_1 2", "outbox now", "", "resync"] {
            #expect(PostgresVerificationStore.notice(payload) == nil)
        }
    }
}
