import Foundation
import Testing
import TacitStore

/// The settings half of the store contract the key ring relies on: listing by prefix
/// (its fingerprints) and deleting (the old master secret's row).
@Suite("Store contract: settings")
struct SettingsContractTests {
    @Test("settings list by literal prefix, and a deleted setting is gone while others stay", arguments: StoreContractTests.Kind.allCases)
    func prefixAndDelete(kind: StoreContractTests.Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        for name in ["key_fingerprint:a", "key_fingerprint:b", "key_fingerprintXc", "master_secret", "key%_other"] {
            _ = try await store.setSettingIfAbsent(name, Array(name.utf8))
        }
        let listed = try await store.settings(prefix: "key_fingerprint:")
        #expect(listed == ["key_fingerprint:a": Array("key_fingerprint:a".utf8), "key_fingerprint:b": Array("key_fingerprint:b".utf8)])
        #expect(try await store.settings(prefix: "key%").keys.sorted() == ["key%_other"])
        try await store.deleteSetting("master_secret")
        try await store.deleteSetting("never_set")
        #expect(try await store.setting("master_secret") == nil)
        #expect(try await store.setting("key_fingerprint:a") != nil)
    }
}
