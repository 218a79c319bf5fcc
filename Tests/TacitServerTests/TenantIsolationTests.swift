import Foundation
import Testing
@testable import TacitServer
import TacitStore
import TacitTesting

/// One application's credential sees nothing of another's verifications (docs/api.md#applications-and-keys): on
/// every `/v1` route that takes a verification id, as the route table lists them, it gets
/// the answer an unknown id gets, byte for byte, and nothing of the verification changes.
@Suite("Tenant isolation on /v1", .timeLimit(.minutes(1)))
struct TenantIsolationTests {
    /// Every route with a verification id, from the application's own route table: a
    /// route added later is in this list without anyone remembering to add it.
    static let routes: [RouteDeclaration] = RouteSecurityDeclarationTests.table(dev: true).declarations
        .filter { $0.pattern.hasPrefix("/v1/") && $0.pattern.split(separator: "/").contains(":id") }

    /// One request per route, and the SSE stream and a page past a cursor beside the plain events read.
    static func requests(for id: String) -> [(method: String, path: String, headers: [String: String])] {
        routes.flatMap { route -> [(method: String, path: String, headers: [String: String])] in
            let path = route.pattern.replacingOccurrences(of: ":id", with: id)
            guard route.method == "GET", route.pattern.hasSuffix("/events") else { return [(route.method, path, [:])] }
            return [(route.method, path, [:]), (route.method, path + "?after=1", [:]),
                    (route.method, path, ["Accept": "text/event-stream"]),
                    (route.method, path, ["Accept": "text/event-stream", "Last-Event-ID": "1"])]
        }
    }

    static let body = Data(#"{"code":"123456","label":"device:probe"}"#.utf8)
    static let unknown = "vf_00000000000000000000000000"

    @Test("the table covers state, check, next, cancel, events (JSON and SSE), device events and export")
    func coverage() {
        let listed = Set(Self.routes.map { "\($0.method) \($0.pattern)" })
        #expect(listed.isSuperset(of: [
            "GET /v1/verifications/:id", "POST /v1/verifications/:id/check", "POST /v1/verifications/:id/next",
            "DELETE /v1/verifications/:id", "GET /v1/verifications/:id/events", "POST /v1/verifications/:id/events",
            "GET /v1/verifications/:id/timeline",
        ]), "\(listed)")
    }

    @Test("another application's key and a keyless dev caller get, on every id route, what an unknown id gets, and A's rows stay as they were")
    func foreignCredentialsSeeAnUnknownId() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenants = try await TenantFixtures.tenants(app)
            let a = keyless.bearer(tenants.keyA)
            let started = try await a.post("/v1/verifications", json: ["phone_number": "+99012345670"],
                                           headers: ["Idempotency-Key": "shared-key"])
            #expect(started.status == 202)
            let id = try #require(started.string("request_id"))
            let before = try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath)
            #expect(!before.isEmpty)
            for (name, foreign) in [("app B's key", keyless.bearer(tenants.keyB)), ("keyless dev", keyless)] {
                for (request, probe) in zip(Self.requests(for: id), Self.requests(for: Self.unknown)) {
                    let body = request.method == "POST" ? Self.body : nil
                    let seen = try await foreign.send(request.method, request.path, body: body, headers: request.headers)
                    let absent = try await foreign.send(probe.method, probe.path, body: body, headers: probe.headers)
                    let label = "\(name): \(request.method) \(request.path) \(request.headers)"
                    #expect(seen.status == 404, "\(label)")
                    #expect(seen.type == "not-found", "\(label)")
                    #expect(seen.body == absent.body, "\(label)")
                    #expect(seen.status == absent.status && seen.header("content-type") == absent.header("content-type"), "\(label)")
                }
            }
            #expect(try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath) == before)
            #expect(try await a.get("/v1/verifications/\(id)").string("status") == "pending")
        }
    }

    @Test("B replaying A's Idempotency-Key with A's body starts B's own verification and never sees A's id, token or check_url")
    func idempotencyKeyAcrossApplications() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenants = try await TenantFixtures.tenants(app)
            let body: [String: Any] = ["phone_number": "+99012345670", "workflow": [["channel": "silent_auth"], ["channel": "sms"]]]
            let first = try await keyless.bearer(tenants.keyA).post("/v1/verifications", json: body, headers: ["Idempotency-Key": "k-1"])
            let id = try #require(first.string("request_id"))
            let before = try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath)
            let replay = try await keyless.bearer(tenants.keyB).post("/v1/verifications", json: body, headers: ["Idempotency-Key": "k-1"])
            #expect(replay.status == 202)
            #expect(replay.header("idempotent-replayed") == nil)
            #expect(replay.string("request_id") != id)
            #expect(replay.string("client_token") != first.string("client_token"))
            #expect(replay.string("check_url") != first.string("check_url"))
            #expect(!replay.text.contains(id))
            #expect(try TenantFixtures.rows(of: id, application: tenants.a.id, in: app.databasePath) == before)
            let again = try await keyless.bearer(tenants.keyA).post("/v1/verifications", json: body, headers: ["Idempotency-Key": "k-1"])
            #expect(again.header("idempotent-replayed") == "true")
            #expect(again.string("request_id") == id)
        }
    }

    @Test("B's key on A's client-token routes and B using A's verification through its own pending number both leave A alone")
    func checksAcrossApplications() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenants = try await TenantFixtures.tenants(app)
            let a = keyless.bearer(tenants.keyA), b = keyless.bearer(tenants.keyB)
            let started = try await a.post("/v1/verifications", json: ["phone_number": "+99012345672", "workflow": [["channel": "sms"]]])
            let id = try #require(started.string("request_id"))
            let code = try #require(try await keyless.latestCode("+99012345672"))
            #expect(try await b.post("/v1/verifications/\(id)/check", json: ["code": code]).status == 404)
            let own = try await b.post("/v1/verifications", json: ["phone_number": "+99012345672", "workflow": [["channel": "sms"]]])
            #expect(own.status == 202, "A's pending verification of the number is not B's to see")
            #expect(try await a.get("/v1/verifications/\(id)").string("status") == "pending")
            #expect(try await a.post("/v1/verifications/\(id)/check", json: ["code": code]).string("status") == "completed")
        }
    }
}
