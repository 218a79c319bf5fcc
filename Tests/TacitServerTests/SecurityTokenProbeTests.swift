import Foundation
import Testing
import TacitTesting
@testable import TacitServer

/// A client token used on a path that isn't its verification's must not tell, by its
/// answer or by the work behind it, whether the path's verification exists.
@Suite("Client token answers do the same work whether the path's id exists", .timeLimit(.minutes(1)))
struct SecurityTokenProbeTests {
    /// The work of one `authorize`, and the status it answered with.
    static func judge(_ authority: ClientTokenAuthority, meter: TokenCheckMeter, _ token: String, id: String) async -> ([TokenCheckMeter.Work: Int], Int?) {
        meter.reset()
        var status: Int?
        do { _ = try await authority.authorize(token, id: id) } catch let problem as APIProblem { status = problem.status } catch {}
        return (meter.snapshot, status)
    }

    @Test("another verification's token is a 403 with the same hashing, reads and comparisons for an existing id and an unknown one")
    func forbiddenCostsTheSame() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (mine, started) = try await client.start("+99012345670")
            let (other, _) = try await client.start("+99012345672")
            let token = try #require(started.string("client_token"))
            let unknown = "vf_" + String(repeating: "0", count: other.count - 3)
            for path in [other, unknown] {
                let reply = try await client.bearer(token).post("/v1/verifications/\(path)/events", json: ["label": "device:probe"])
                #expect(reply.status == 403)
                #expect(reply.type == "forbidden")
            }
            let meter = TokenCheckMeter()
            let secrets = try await ServerSecrets.load(configuration: app.configuration, store: app.store)
            let authority = ClientTokenAuthority(store: app.store, secrets: secrets, meter: meter)
            let existing = await Self.judge(authority, meter: meter, token, id: other)
            let missing = await Self.judge(authority, meter: meter, token, id: unknown)
            #expect(existing.1 == 403 && missing.1 == 403)
            #expect(existing.0 == missing.0)
            #expect(existing.0 == [.hash: 1, .read: 1, .comparison: 1])
            #expect(await Self.judge(authority, meter: meter, token, id: mine).0 == existing.0)
        }
    }

    @Test("a forged token naming an existing id and one naming an unknown id are both a 401 after one hash, one read and one comparison")
    func forgedCostsTheSame() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (mine, _) = try await client.start("+99012345670")
            let tail = String(repeating: "A", count: ClientToken.tailLength)
            let meter = TokenCheckMeter()
            let secrets = try await ServerSecrets.load(configuration: app.configuration, store: app.store)
            let authority = ClientTokenAuthority(store: app.store, secrets: secrets, meter: meter)
            let existing = await Self.judge(authority, meter: meter, "ct_\(mine)_\(tail)", id: mine)
            let unknown = "vf_" + String(repeating: "0", count: mine.count - 3)
            let missing = await Self.judge(authority, meter: meter, "ct_\(unknown)_\(tail)", id: unknown)
            #expect(existing.1 == 401 && missing.1 == 401)
            #expect(existing.0 == missing.0)
            #expect(existing.0 == [.hash: 1, .read: 1, .comparison: 1])
        }
    }
}
