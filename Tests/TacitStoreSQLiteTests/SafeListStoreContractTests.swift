import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

/// The safe-list half of the store contract (docs/fraud.md#safe-list-and-risk_check): one row
/// per application and entry, added once, listed and removed per application only, and read
/// through the copy kept a second.
@Suite("Store contract: safe list")
struct SafeListStoreContractTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func entry(_ app: String, _ text: String) -> SafeListEntry {
        SafeListEntry(applicationId: app, entry: text, createdAt: now)
    }

    @Test("add, list and remove per application; another application's stay untouched",
          arguments: StoreContractTests.Kind.allCases)
    func perApplication(kind: StoreContractTests.Kind) async throws {
        let (made, _) = try await StoreContractTests.make(kind)
        let store = try #require(made as? any VerificationStore & ApplicationStore & SafeListStore)
        for id in ["app_a", "app_b"] {
            try await store.insertApplication(Application(id: id, name: id, createdAt: Self.now), credentials: [])
        }
        #expect(try await store.addSafeListEntry(Self.entry("app_a", "+447911123456")))
        #expect(try await store.addSafeListEntry(Self.entry("app_a", "+447911123456")))
        #expect(try await store.addSafeListEntry(Self.entry("app_a", "+4477*")))
        #expect(try await store.addSafeListEntry(Self.entry("app_b", "+447911123456")))
        #expect(try await !store.addSafeListEntry(Self.entry("app_none", "+447911123456")))
        #expect(try await store.safeList(application: "app_a")
                    == [Self.entry("app_a", "+4477*"), Self.entry("app_a", "+447911123456")])
        #expect(try await store.removeSafeListEntry(application: "app_a", entry: "+447911123456"))
        #expect(try await !store.removeSafeListEntry(application: "app_a", entry: "+447911123456"))
        #expect(try await store.safeList(application: "app_a").map(\.entry) == ["+4477*"])
        #expect(try await store.safeList(application: "app_b").map(\.entry) == ["+447911123456"])
    }

    @Test("an entry matches its number exactly, a prefix every number it starts")
    func matching() {
        #expect(Self.entry("a", "+447911123456").matches("+447911123456"))
        #expect(!Self.entry("a", "+44791112345").matches("+447911123456"))
        #expect(Self.entry("a", "+4479*").matches("+447911123456"))
        #expect(!Self.entry("a", "+4479*").matches("+447811123456"))
    }

    @Test("a start's look-up reads the copy kept a second: another process's change waits, this store's shows at once")
    func keptForASecond() async throws {
        let (made, path) = try await StoreContractTests.make(.sqlite)
        let store = try #require(made as? SQLiteVerificationStore)
        let file = try #require(path)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let other = try SQLiteVerificationStore(path: file)
        try await store.insertApplication(Application(id: "app_a", name: "A", createdAt: Self.now), credentials: [])
        #expect(try await store.safeList(application: "app_a").isEmpty)
        #expect(try await other.addSafeListEntry(Self.entry("app_a", "+4477*")))
        #expect(try await store.safeList(application: "app_a").isEmpty, "no read before the copy's second is up")
        #expect(try await store.addSafeListEntry(Self.entry("app_a", "+447911123456")))
        #expect(try await store.safeList(application: "app_a").map(\.entry) == ["+4477*", "+447911123456"])
    }
}
