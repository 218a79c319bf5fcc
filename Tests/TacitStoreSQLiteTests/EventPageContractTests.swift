import Foundation
import Testing
import TacitCore
import TacitStore
import TacitStoreSQLite
import TacitTesting

/// Event reads page by `after` and `limit`, whichever store: pages of any size, across
/// changes that each wrote several events, read every event exactly once.
@Suite("Store contract: event pages")
struct EventPageContractTests {
    /// A verification with one event from its insert and `changes` more changes of three events each.
    static func grouped(_ kind: StoreContractTests.Kind, changes: Int) async throws -> (any VerificationStore, String?) {
        let (store, path) = try await StoreContractTests.make(kind)
        let now = StoreContractTests.now
        _ = try await store.insert(StoreContractTests.verification("a"), events: [EventDraft("x:start", note: "start")], at: now, idempotency: nil)
        for change in 0..<changes {
            _ = try await store.update(id: "a", at: now) { _ in
                StoreChange((), events: (0..<3).map { EventDraft("x:e\(change)_\($0)", source: .device, note: "n") })
            }
        }
        return (store, path)
    }

    @Test("every page size walks every event once, in seq order", arguments: StoreContractTests.Kind.allCases)
    func pages(kind: StoreContractTests.Kind) async throws {
        let (store, path) = try await Self.grouped(kind, changes: 7)
        defer { path.map { try? FileManager.default.removeItem(atPath: $0) } }
        for limit in 1...23 {
            var seqs: [Int] = []
            var after = 0
            while true {
                let page = try await store.events(id: "a", after: after, limit: limit)
                #expect(page.count <= limit)
                seqs += page.map(\.seq)
                guard page.count == limit, let last = page.last?.seq else { break }
                after = last
            }
            #expect(seqs == Array(1...22), "limit \(limit)")
        }
    }

    @Test("a page starting inside a change's events begins right after the cursor", arguments: StoreContractTests.Kind.allCases)
    func insideAGroup(kind: StoreContractTests.Kind) async throws {
        let (store, path) = try await Self.grouped(kind, changes: 3)
        defer { path.map { try? FileManager.default.removeItem(atPath: $0) } }
        #expect(try await store.events(id: "a", after: 3, limit: 2).map(\.seq) == [4, 5])
        #expect(try await store.events(id: "a", after: 5, limit: 100).map(\.seq) == [6, 7, 8, 9, 10])
        #expect(try await store.events(id: "a", after: 9, limit: Int.max).map(\.seq) == [10])
        #expect(try await store.events(id: "a", after: 10, limit: 5).isEmpty)
    }
}
