import Foundation
import Testing
@testable import TacitServer
import TacitTesting

/// One application's Twilio credential sees nothing of another's verifications (docs/api.md#applications-and-keys):
/// on every route of the face, as the route table lists them, B on A's sid gets what an
/// unknown sid gets (the same status and bytes, the sid it named aside), and nothing of
/// A's verification changes.
@Suite("Tenant isolation on the Twilio face", .timeLimit(.minutes(1)))
struct TwilioFaceIsolationTests {
    static let routes = RouteSecurityDeclarationTests.table(dev: true).declarations.filter { $0.security.access == .face("twilio") }
    static let unknown = "VE" + String(repeating: "0", count: 32)
    static let number = "+99012345672"

    @Test("the face's routes are create, fetch, update and check, each behind the face's own credential")
    func coverage() {
        #expect(Set(Self.routes.map { "\($0.method) \($0.pattern)" }) == [
            "POST /v2/Services/:service/Verifications", "GET /v2/Services/:service/Verifications/:sid",
            "POST /v2/Services/:service/Verifications/:sid", "POST /v2/Services/:service/VerificationCheck",
        ])
    }

    /// The requests B makes on each route about verification `sid` (of number `to`).
    static func requests(_ b: TwilioCalls, sid: String, to: String) -> [(method: String, path: String, form: [(String, String)])] {
        routes.flatMap { route -> [(method: String, path: String, form: [(String, String)])] in
            let path = route.pattern.replacingOccurrences(of: ":service", with: b.serviceSid).replacingOccurrences(of: ":sid", with: sid)
            switch (route.method, route.pattern.hasSuffix("VerificationCheck"), route.pattern.hasSuffix(":sid")) {
            case ("POST", true, _): return [("POST", path, [("VerificationSid", sid), ("Code", "123456")]),
                                            ("POST", path, [("To", to), ("Code", "123456")]), ("POST", path, [("To", to)])]
            case ("POST", false, true): return [("POST", path, [("Status", "canceled")]), ("POST", path, [("Status", "approved")])]
            case ("GET", _, _): return [("GET", path, [])]
            default: return []
            }
        }
    }

    @Test("B's credential on A's verification, by sid and by number, answers as an unknown one on every route, and A's rows stay as they were")
    func foreignCredentialSeesAnUnknownSid() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await TwilioCalls.make(app, keyless, name: "Alpha")
            let b = try await TwilioCalls.make(app, keyless, name: "Bravo")
            let sid = try #require(try await a.start(Self.number).json["sid"] as? String)
            let code = try #require(try await keyless.latestCode(Self.number))
            let before = try TenantFixtures.rows(of: sid, application: a.application.id, in: app.databasePath)
            #expect(!before.isEmpty)
            let probes = zip(Self.requests(b, sid: sid, to: Self.number), Self.requests(b, sid: Self.unknown, to: "+99012345674"))
            for (request, probe) in probes {
                let seen = request.method == "GET" ? try await b.get(request.path) : try await b.post(request.path, request.form)
                let absent = probe.method == "GET" ? try await b.get(probe.path) : try await b.post(probe.path, probe.form)
                let label = "\(request.method) \(request.path) \(request.form.map(\.0))"
                #expect(seen.status == 404 && seen.json["code"] as? Int == 20404, "\(label): \(seen.text)")
                #expect(seen.text.replacingOccurrences(of: sid, with: Self.unknown) == absent.text, "\(label)")
                #expect(seen.header("content-type") == absent.header("content-type"), "\(label)")
                #expect(!seen.text.contains(Self.number), "\(label)")
            }
            #expect(try TenantFixtures.rows(of: sid, application: a.application.id, in: app.databasePath) == before)
            let own = try await b.start(Self.number)
            #expect(own.status == 201 && own.json["sid"] as? String != sid, "A's pending verification of the number is not B's to see")
            #expect(try TenantFixtures.rows(of: sid, application: a.application.id, in: app.databasePath) == before)
            #expect(try await a.check(to: Self.number, code: code).json["status"] as? String == "approved")
        }
    }

    @Test("a /v1 key of another application, and a keyless dev caller, see a face-started verification as unknown")
    func v1Isolation() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await TwilioCalls.make(app, keyless, name: "Alpha")
            let b = try await TwilioCalls.make(app, keyless, name: "Bravo")
            let sid = try #require(try await a.start(Self.number).json["sid"] as? String)
            for client in [keyless.bearer(b.apiKey), keyless] {
                let reply = try await client.get("/v1/verifications/\(sid)")
                #expect(reply.status == 404 && reply.type == "not-found")
            }
        }
    }
}
