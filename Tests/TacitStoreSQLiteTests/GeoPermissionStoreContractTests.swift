import Foundation
import TacitCore
import Testing
import TacitStore
import TacitStoreSQLite

/// The geo-permission half of the store contract (docs/fraud.md#geo-permissions): one row per
/// application and channel, replaced when set again, listed and removed per application only,
/// read through the copy kept a second; and the channels a verification's geo permissions
/// refused, kept in its record.
@Suite("Store contract: geo permissions")
struct GeoPermissionStoreContractTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func permission(_ app: String, _ channel: Channel, _ countries: [String],
                           _ mode: GeoPermission.Mode = .enforce) -> GeoPermission {
        GeoPermission(applicationId: app, channel: channel, countries: countries, mode: mode, updatedAt: now)
    }

    @Test("set, replace, list and remove per channel and application; another application's stay untouched",
          arguments: StoreContractTests.Kind.allCases)
    func perApplication(kind: StoreContractTests.Kind) async throws {
        let (made, _) = try await StoreContractTests.make(kind)
        let store = try #require(made as? any VerificationStore & ApplicationStore & GeoPermissionStore)
        for id in ["app_a", "app_b"] {
            try await store.insertApplication(Application(id: id, name: id, createdAt: Self.now), credentials: [])
        }
        #expect(try await store.setGeoPermission(Self.permission("app_a", .voice, ["GB"])))
        #expect(try await store.setGeoPermission(Self.permission("app_a", .sms, ["DE", "GB"])))
        #expect(try await store.setGeoPermission(Self.permission("app_a", .sms, ["FR", "GB", "US"], .monitor)))
        #expect(try await store.setGeoPermission(Self.permission("app_b", .sms, ["US"])))
        #expect(try await !store.setGeoPermission(Self.permission("app_none", .sms, ["US"])))
        #expect(try await store.geoPermissions(application: "app_a")
                    == [Self.permission("app_a", .sms, ["FR", "GB", "US"], .monitor),
                        Self.permission("app_a", .voice, ["GB"])])
        #expect(try await store.removeGeoPermission(application: "app_a", channel: .voice))
        #expect(try await !store.removeGeoPermission(application: "app_a", channel: .voice))
        #expect(try await store.geoPermissions(application: "app_a").map(\.channel) == [.sms])
        #expect(try await store.geoPermissions(application: "app_b") == [Self.permission("app_b", .sms, ["US"])])
        #expect(try await store.geoPermissions(application: "app_none").isEmpty)
    }

    @Test("a start's look-up reads the copy kept a second: another process's change waits, this store's shows at once")
    func keptForASecond() async throws {
        let (made, path) = try await StoreContractTests.make(.sqlite)
        let store = try #require(made as? SQLiteVerificationStore)
        let file = try #require(path)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let other = try SQLiteVerificationStore(path: file)
        try await store.insertApplication(Application(id: "app_a", name: "A", createdAt: Self.now), credentials: [])
        #expect(try await store.geoPermissions(application: "app_a").isEmpty)
        #expect(try await other.setGeoPermission(Self.permission("app_a", .sms, ["GB"])))
        #expect(try await store.geoPermissions(application: "app_a").isEmpty, "no read before the copy's second is up")
        #expect(try await store.setGeoPermission(Self.permission("app_a", .voice, ["GB"])))
        #expect(try await store.geoPermissions(application: "app_a").map(\.channel) == [.sms, .voice])
    }

    @Test("a verification's geo-refused channels survive the store; one stored before them reads with none",
          arguments: StoreContractTests.Kind.allCases)
    func refusedChannelsKept(kind: StoreContractTests.Kind) async throws {
        let (store, _) = try await StoreContractTests.make(kind)
        var v = StoreContractTests.verification("vf_geo")
        v.geoRefusedChannels = [.sms, .silentAuth]
        _ = try await store.insert(v, events: [], at: StoreContractTests.now, idempotency: nil)
        #expect(try await store.verification(id: "vf_geo")?.geoRefusedChannels == [.sms, .silentAuth])
        let plain = StoreContractTests.verification("vf_plain")
        let older = Array(VerificationRecord.encode(plain).dropLast())
        let read = try VerificationRecord.decode(older).verification(
            id: "vf_plain", phoneNumber: plain.phoneNumber, status: .pending, deadline: nil, createdAt: Self.now,
            lastSeq: 0)
        #expect(read.geoRefusedChannels.isEmpty && read.sealedTestCode == nil)
    }
}
