import Foundation
import Testing
@testable import TacitServer
import TacitTesting

/// Application B's Vonage credential on application A's request id answers, on every
/// face route, byte for byte what an unknown request id gets, and nothing of A changes.
@Suite("Vonage face: tenant isolation", .timeLimit(.minutes(1)))
struct VonageFaceIsolationTests {
    /// Every face route with a request id, from the application's own route table.
    static let routes = RouteSecurityDeclarationTests.table(dev: true).declarations
        .filter { $0.security.access == .face("vonage") && $0.pattern.contains(":id") }
    static let unknown = "0190a5b2-0000-7000-8000-000000000000"
    static let body = Data(#"{"code":"1234"}"#.utf8)

    @Test("the face's id routes are the check, next_workflow and cancel")
    func coverage() {
        #expect(Set(Self.routes.map { "\($0.method) \($0.pattern)" }) ==
                ["POST /v2/verify/:id", "POST /v2/verify/:id/next_workflow", "DELETE /v2/verify/:id"])
    }

    @Test("B's JWT and B's Basic credential on A's request id get what an unknown id gets, and A's rows stay as they were")
    func foreignCredentials() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let tenants = try await VonageFaceFixtures.make(app)
            let a = try tenants.client(client, app: app)
            let started = try await a.start("99012345672", ["sms", "voice"])
            let id = try #require(started.string("request_id"))
            let before = try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath)
            let foreign: [(String, @Sendable () throws -> String)] = [
                ("B's JWT", { "Bearer " + (try tenants.jwt(tenants.credentialsB.vonageApplicationId, now: app.clock.now())) }),
                ("B's Basic", { VonageFaceFixtures.basic(tenants.credentialsB) }),
            ]
            for (name, credential) in foreign {
                for route in Self.routes {
                    let body = route.method == "POST" ? Self.body : nil
                    let seen = try await client.send(route.method, route.pattern.replacingOccurrences(of: ":id", with: id), body: body,
                                                     headers: ["Authorization": try credential()])
                    let absent = try await client.send(route.method, route.pattern.replacingOccurrences(of: ":id", with: Self.unknown),
                                                       body: body, headers: ["Authorization": try credential()])
                    let label = "\(name): \(route.method) \(route.pattern)"
                    #expect(seen.status == 404, "\(label)")
                    #expect(seen.body == absent.body, "\(label)")
                    #expect(seen.header("content-type") == absent.header("content-type"), "\(label)")
                }
            }
            #expect(try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath) == before)
            let code = try #require(try await client.latestCode("+99012345672"))
            #expect(try await a.send("POST", "/v2/verify/\(id)", json: ["code": code]).string("status") == "completed")
        }
    }
}
