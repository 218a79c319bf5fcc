import Foundation
import Testing
import TacitStore
import TacitStorePostgres
import TacitTesting

/// Two stores on one database, standing in for two instances, share `--dev`'s state.
@Suite("Dev state across two instances on one PostgreSQL database", .enabled(if: PostgresCluster.enabled),
       .timeLimit(.minutes(1)))
struct DevStateTwoInstanceTests {
    let first: PostgresVerificationStore
    let second: PostgresVerificationStore
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    init() async throws {
        (first, second) = try await PostgresCluster.makeProtectedPair()
    }

    @Test("a session opened through one instance is claimed exactly once of 20 claims racing through both")
    func sessionClaimedOnceAcrossInstances() async throws {
        let session = DevGatewaySession(number: "+99012345670", redirectURI: "http://127.0.0.1:9/cb", expiresAt: Self.now + 60)
        try await first.openGatewaySession(id: "s1", session)
        let (first, second) = (first, second)
        let fresh = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? first : second
                group.addTask {
                    if case .fresh = try await store.claimGatewaySession(id: "s1", now: Self.now) { _ in true } { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(fresh == 1)
    }

    @Test("a message written through one instance is in the other's inbox, and both agree on one operator key")
    func inboxAndKeyShared() async throws {
        try await first.appendInboxMessage(DevInboxMessage(channel: "sms", body: "code 1", at: "t"), to: "+99012345670", keeping: 50)
        #expect(try await second.inboxMessages(for: "+99012345670").map(\.body) == ["code 1"])
        async let one = first.devSecret("operator", proposed: [1])
        async let two = second.devSecret("operator", proposed: [2])
        let (a, b) = try await (one, two)
        #expect(a == b)
    }
}
