import Foundation
import Synchronization
import Testing
import TacitCore
import TacitStore
@testable import TacitStorePostgres
import TacitTesting

/// Following a verification: only followed verifications are announced, and a follow
/// leaves no write out of the stream that made it.
@Suite("PostgreSQL change feed: following", .enabled(if: PostgresCluster.enabled), .timeLimit(.minutes(1)))
struct ChangeFeedFollowTests {
    @Test("only followed verifications are announced, whichever instance followed; a second follow, or one of a verification that does not exist, records nothing")
    func announcesFollowedOnly() async throws {
        let (writer, reader, _) = try await ChangeFeedTests.stores()
        for id in ["a", "b"] {
            _ = try await writer.insert(TwoInstanceTests.verification(id, id == "a" ? "+99012345670" : "+99012345671"),
                                        events: [EventDraft("x:one", note: "one")], at: ChangeFeedTests.now, idempotency: nil)
        }
        try await writer.follow("b")
        try await writer.follow("b")
        try await reader.follow("missing")
        try await ChangeFeedTests.listening(reader) { notices in
            #expect(try await ChangeFeedTests.next(notices) == .resync)
            _ = try await writer.update(id: "a", at: ChangeFeedTests.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
            _ = try await writer.update(id: "b", at: ChangeFeedTests.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
            // Commit order again: had "a" been announced, its notice would come first.
            #expect(try await ChangeFeedTests.next(notices) == .events(verificationId: "b", after: 1, through: 2))
        }
        let followed = try await writer.pool.withConnection { db in
            try db.query("SELECT verification_id FROM followed_verifications").map { try $0.string("verification_id") }
        }
        #expect(followed == ["b"])
    }

    @Test("a follow waits for a write in flight to commit, so the read after it sees that write")
    func followWaitsForAWriteInFlight() async throws {
        let (writer, reader, url) = try await ChangeFeedTests.stores()
        _ = try await writer.insert(TwoInstanceTests.verification("a"), events: [EventDraft("x:one", note: "one")], at: ChangeFeedTests.now, idempotency: nil)
        // Another instance's write, held open between its row update and its commit.
        let holder = PostgresPool(conninfo: url, size: 1), admin = PostgresPool(conninfo: url, size: 1)
        let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let write = Task {
            try await holder.transaction { db in
                _ = try db.execute("UPDATE verifications SET last_seq = last_seq + 1 WHERE id = 'a'")
                lockedSignal.yield()
                release.wait()
            }
        }
        for await _ in locked { break }
        // However the test ends, the held write ends with it.
        defer { release.signal() }
        let followed = Atomic(false)
        let follow = Task {
            try await reader.follow("a")
            followed.store(true, ordering: .sequentiallyConsistent)
        }
        // PostgreSQL shows the follow waiting on the write's row lock.
        try await within(10) {
            while try await admin.withConnection({ db in
                try db.query("""
                    SELECT count(*) AS waiting FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock' AND query LIKE '%FROM verifications WHERE id = $1 FOR SHARE%'
                    """).first?.int("waiting") ?? 0
            }) == 0 {
                try Task.checkCancellation()
                await Task.yield()
            }
        }
        let returnedEarly = followed.load(ordering: .sequentiallyConsistent)
        #expect(!returnedEarly, "the follow waits while the write is open")
        release.signal()
        try await write.value
        try await follow.value
        #expect(try await writer.verification(id: "a")?.lastSeq == 2, "what the stream reads after the follow holds the write")
    }
}
