import Foundation
import Testing
import TacitStore
import TacitStoreSQLite

/// The test numbers half of the store contract (docs/fraud.md#test-numbers): one per
/// application and number, replaced in place, listed and removed per application only, the
/// sealed code and expiry kept as given; a verification keeps its line type and sealed code.
@Suite("Store contract: test numbers")
struct TestNumberStoreContractTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    @Test("set, replace, list and remove per application; another application's stay untouched",
          arguments: StoreContractTests.Kind.allCases)
    func perApplication(kind: StoreContractTests.Kind) async throws {
        let (made, _) = try await StoreContractTests.make(kind)
        let store = try #require(made as? any VerificationStore & ApplicationStore & TestNumberStore)
        for id in ["app_a", "app_b"] {
            try await store.insertApplication(Application(id: id, name: id, createdAt: Self.now), credentials: [])
        }
        let expires = Self.now.addingTimeInterval(86_400)
        func test(_ app: String, _ number: String, _ sealed: [UInt8], _ expiresAt: Date? = nil) -> TestNumber {
            TestNumber(applicationId: app, phoneNumber: number, sealedCode: sealed, expiresAt: expiresAt,
                       createdAt: Self.now)
        }
        #expect(try await store.setTestNumber(test("app_a", "+447911123456", [1, 2])))
        #expect(try await store.setTestNumber(test("app_a", "+447911123456", [3, 4], expires)))
        #expect(try await store.setTestNumber(test("app_a", "+15005550006", [5])))
        #expect(try await store.setTestNumber(test("app_b", "+447911123456", [6])))
        #expect(try await !store.setTestNumber(test("app_none", "+447911123456", [7])))
        let mine = try await store.testNumbers(application: "app_a")
        #expect(mine == [test("app_a", "+15005550006", [5]), test("app_a", "+447911123456", [3, 4], expires)])
        #expect(try await store.deleteTestNumber(application: "app_a", phoneNumber: "+447911123456"))
        #expect(try await !store.deleteTestNumber(application: "app_a", phoneNumber: "+447911123456"))
        #expect(try await store.testNumbers(application: "app_a").map(\.phoneNumber) == ["+15005550006"])
        #expect(try await store.testNumbers(application: "app_b").map(\.sealedCode) == [[6]])
    }

    @Test("a verification keeps its line type and its test number's sealed code",
          arguments: StoreContractTests.Kind.allCases)
    func verificationKeepsThem(kind: StoreContractTests.Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        var verification = StoreContractTests.verification("a")
        verification.lineType = "fixed_line"
        verification.sealedTestCode = [9, 8, 7]
        _ = try await store.insert(verification, events: [], at: Self.now, idempotency: nil)
        let read = try #require(try await store.verification(id: "a"))
        #expect(read.lineType == "fixed_line" && read.sealedTestCode == [9, 8, 7])
    }

    @Test("a start's look-up reads the copy kept a second: another process's change waits, this store's shows at once")
    func keptForASecond() async throws {
        let (made, path) = try await StoreContractTests.make(.sqlite)
        let store = try #require(made as? SQLiteVerificationStore)
        let file = try #require(path)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let other = try SQLiteVerificationStore(path: file)
        try await store.insertApplication(Application(id: "app_a", name: "A", createdAt: Self.now), credentials: [])
        #expect(try await store.testNumbers(application: "app_a").isEmpty)
        let number = TestNumber(applicationId: "app_a", phoneNumber: "+447911123456", sealedCode: [1],
                                createdAt: Self.now)
        #expect(try await other.setTestNumber(number))
        #expect(try await store.testNumbers(application: "app_a").isEmpty, "no read before the copy's second is up")
        #expect(try await store.setTestNumber(number))
        #expect(try await store.testNumbers(application: "app_a") == [number])
    }
}
