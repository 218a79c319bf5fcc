import Foundation
import Testing
import TacitCore
import TacitStore
import TacitTesting

/// Inside a `StoreScope`, another application's verification is absent from every read
/// and change by id, the same against every store (see `StoreContractTests`).
@Suite("Store scope contract")
struct StoreScopeContractTests {
    typealias Kind = StoreContractTests.Kind
    static let now = StoreContractTests.now

    /// Verification `v1` of application `app-a`, with one event, read once so a store that keeps states has it.
    static func stored(_ kind: Kind) async throws -> any VerificationStore {
        let (store, _) = try await StoreContractTests.make(kind)
        var verification = StoreContractTests.verification("v1")
        verification.applicationId = "app-a"
        _ = try await store.insert(verification, events: [EventDraft("x:one", note: "one")], at: Self.now, idempotency: nil)
        _ = try await store.verification(id: "v1")
        return store
    }

    @Test("another application's scope reads, lists and changes nothing of a verification, as for an unknown id",
          arguments: Kind.allCases)
    func foreignScopeSeesNothing(kind: Kind) async throws {
        let store = try await Self.stored(kind)
        try await StoreScope.$application.withValue("app-b") {
            for id in ["v1", "unknown"] {
                #expect(try await store.verification(id: id) == nil, "\(id)")
                #expect(try await store.recentVerification(id: id) == nil, "\(id)")
                #expect(try await store.events(id: id, after: 0, limit: 10).isEmpty, "\(id)")
                let changed = try await store.update(id: id, at: Self.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
                #expect(changed == nil, "\(id)")
            }
        }
        let untouched = try #require(try await store.verification(id: "v1"))
        #expect(untouched.lastSeq == 1)
        #expect(try await store.events(id: "v1", after: 0, limit: 10).map(\.label) == ["x:one"])
    }

    @Test("the owner's scope, and no scope, see and change the verification", arguments: Kind.allCases)
    func ownerScopeSeesIt(kind: Kind) async throws {
        let store = try await Self.stored(kind)
        try await StoreScope.$application.withValue("app-a") {
            #expect(try await store.recentVerification(id: "v1")?.applicationId == "app-a")
            #expect(try await store.events(id: "v1", after: 0, limit: 10).map(\.label) == ["x:one"])
            let changed = try await store.update(id: "v1", at: Self.now) { _ in StoreChange((), events: [EventDraft("x:two", note: "two")]) }
            #expect(changed?.verification.lastSeq == 2)
        }
        #expect(try await store.events(id: "v1", after: 0, limit: 10).map(\.label) == ["x:one", "x:two"])
    }
}
