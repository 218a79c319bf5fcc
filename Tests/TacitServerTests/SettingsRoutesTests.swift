import Foundation
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// `GET` and `PATCH /v1/settings` (docs/api.md#settings): the acting application's settings and
/// geo permissions, changed by a JSON merge patch with `settings:write`, every bad member a 4xx
/// problem and nothing written.
@Suite("Application settings over HTTP", .timeLimit(.minutes(1)))
struct SettingsRoutesTests {
    /// An application with a key that may change settings and one that may only read.
    static func tenant(_ app: TestApplication, _ client: TestClient, name: String = "Shop") async throws
        -> (application: Application, writer: TestClient, reader: TestClient) {
        let store = try #require(app.store as? any VerificationStore & KeyStore & ApplicationStore)
        let made = try await ApplicationManager.open(store: store).create(name: name)
        let (_, writer) = try await KeyManager(store: store).create(
            name: "settings", scopes: [Scope.read, Scope.write, Scope.settingsWrite], application: made.application.id)
        return (made.application, client.bearer(writer), client.bearer(made.credentials.apiKey))
    }

    static func patch(_ client: TestClient, _ body: Any) async throws -> TestResponse {
        try await client.send("PATCH", "/v1/settings", body: try JSONSerialization.data(withJSONObject: body))
    }

    static func patch(_ client: TestClient, raw: String, type: String = "application/json") async throws
        -> TestResponse {
        try await client.send("PATCH", "/v1/settings", body: Data(raw.utf8), headers: ["Content-Type": type])
    }

    @Test("GET shows every setting, null when unset, and no geo permission until one is set")
    func fetch() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, keyless)
            let reply = try await tenant.reader.get("/v1/settings")
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.string("application") == tenant.application.id)
            for name in ["brand", "code_length", "channel_timeout", "sms_app_hash", "sms_origin"] {
                #expect(reply.json[name] is NSNull, "\(name): \(reply.text)")
            }
            #expect((reply.json["geo_permissions"] as? [String: Any])?.isEmpty == true, "\(reply.text)")
        }
    }

    @Test("PATCH merges: a member given replaces, null removes, one left out stays; starts use the result")
    func mergePatch() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, keyless)
            let set = try await Self.patch(tenant.writer, [
                "brand": "Shop", "code_length": 8, "sms_origin": "Shop.Example",
                "geo_permissions": ["sms": ["allowed_countries": ["gb", "DE", "GB"], "mode": "monitor"]],
            ])
            #expect(set.status == 200, "\(set.text)")
            #expect(set.string("brand") == "Shop" && set.json["code_length"] as? Int == 8)
            #expect(set.string("sms_origin") == "shop.example")
            let sms = (set.json["geo_permissions"] as? [String: Any])?["sms"] as? [String: Any]
            #expect(sms?["allowed_countries"] as? [String] == ["DE", "GB"] && sms?["mode"] as? String == "monitor")
            let changed = try await Self.patch(tenant.writer, [
                "brand": NSNull(),
                "geo_permissions": ["sms": ["mode": "enforce"], "voice": ["allowed_countries": ["GB"]]],
            ])
            #expect(changed.status == 200, "\(changed.text)")
            let read = try await tenant.reader.get("/v1/settings")
            #expect(read.json["brand"] is NSNull && read.json["code_length"] as? Int == 8, "\(read.text)")
            let geo = read.json["geo_permissions"] as? [String: [String: Any]]
            #expect(geo?["sms"]?["allowed_countries"] as? [String] == ["DE", "GB"])
            #expect(geo?["sms"]?["mode"] as? String == "enforce" && geo?["voice"]?["mode"] as? String == "enforce")
            let store = try #require(app.store as? any GeoPermissionStore)
            #expect(try await store.geoPermissions(application: tenant.application.id).map(\.channel) == [.sms, .voice])
            // The permissions judge the next start at once.
            let refused = try await tenant.reader.start("+33612345678", channels: ["sms", "voice"]).reply
            #expect(refused.status == 403, "\(refused.text)")
            let (_, started) = try await tenant.reader.start("+447400123456", channels: ["sms"])
            #expect(started.status == 202 && app.sender.messages.last?.code.count == 8, "\(started.text)")
            let removed = try await Self.patch(tenant.writer, ["geo_permissions": ["sms": NSNull()]])
            #expect((removed.json["geo_permissions"] as? [String: Any])?.keys.sorted() == ["voice"], "\(removed.text)")
            let cleared = try await Self.patch(tenant.writer, ["geo_permissions": NSNull()])
            #expect((cleared.json["geo_permissions"] as? [String: Any])?.isEmpty == true, "\(cleared.text)")
        }
    }

    @Test("fraud_level: GET shows basic until set, PATCH sets it and starts are judged at it, null puts basic back")
    func fraudLevel() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, keyless)
            #expect(try await tenant.reader.get("/v1/settings").string("fraud_level") == "basic")
            let set = try await Self.patch(tenant.writer, ["fraud_level": "max"])
            #expect(set.status == 200 && set.string("fraud_level") == "max", "\(set.text)")
            let store = try #require(app.store as? any ApplicationStore)
            #expect(try await store.application(id: tenant.application.id)?.settings.fraudLevel == .max)
            // max refuses a VoIP number, which basic verifies.
            let voip = try await tenant.reader.start("+445612345679", channels: ["sms"]).reply
            #expect(voip.status == 403 && voip.string("detail")?.contains("rule line_type") == true, "\(voip.text)")
            let reset = try await Self.patch(tenant.writer, ["fraud_level": NSNull()])
            #expect(reset.status == 200 && reset.string("fraud_level") == "basic", "\(reset.text)")
            #expect(try await tenant.reader.get("/v1/settings").string("fraud_level") == "basic")
        }
    }

    @Test("bad input is a problem naming every bad member, and nothing of the patch is written",
          arguments: [
              (#"{"code_length": 3}"#, "code_length"),
              (#"{"code_length": "6"}"#, "code_length"),
              (#"{"channel_timeout": 5000}"#, "channel_timeout"),
              (#"{"brand": ""}"#, "brand"),
              (#"{"sms_app_hash": "short"}"#, "sms_app_hash"),
              (#"{"sms_origin": "https://x.example/"}"#, "sms_origin"),
              (#"{"fraud": 1}"#, "fraud"),
              (#"{"fraud_level": "high"}"#, "fraud_level"),
              (#"{"fraud_level": 2}"#, "fraud_level"),
              (#"{"geo_permissions": []}"#, "geo_permissions"),
              (#"{"geo_permissions": {"email": {"allowed_countries": ["GB"]}}}"#, "geo_permissions.email"),
              (#"{"geo_permissions": {"fax": null}}"#, "geo_permissions.fax"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": ["UK"]}}}"#,
               "geo_permissions.sms.allowed_countries"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": []}}}"#, "geo_permissions.sms.allowed_countries"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": [1]}}}"#, "geo_permissions.sms.allowed_countries"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": null}}}"#, "geo_permissions.sms.allowed_countries"),
              (#"{"geo_permissions": {"sms": {"mode": "monitor"}}}"#, "geo_permissions.sms.allowed_countries"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": ["GB"], "mode": "log"}}}"#,
               "geo_permissions.sms.mode"),
              (#"{"geo_permissions": {"sms": {"allowed_countries": ["GB"], "x": 1}}}"#, "geo_permissions.sms.x"),
              (#"{"geo_permissions": {"sms": "GB"}}"#, "geo_permissions.sms"),
          ])
    func badInput(body: String, member: String) async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, keyless)
            // A good member beside the bad one, which must not be written either.
            let good = member == "brand" ? #"{"code_length": 6, "# : #"{"brand": "Kept", "#
            let reply = try await Self.patch(tenant.writer, raw: good + body.dropFirst())
            #expect(reply.status == 422 && reply.string("type")?.hasSuffix("invalid-parameters") == true,
                    "\(reply.text)")
            let names = (reply.json["invalid_parameters"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == [member], "\(reply.text)")
            let read = try await tenant.reader.get("/v1/settings")
            #expect(read.json["brand"] is NSNull && read.json["code_length"] is NSNull
                        && (read.json["geo_permissions"] as? [String: Any])?.isEmpty == true,
                    "\(read.text)")
        }
    }

    @Test("a body that is not JSON is 400, not an object 400, and not JSON by its type 415")
    func malformed() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, keyless)
            #expect(try await Self.patch(tenant.writer, raw: "{").status == 400)
            #expect(try await Self.patch(tenant.writer, raw: "").status == 400)
            #expect(try await Self.patch(tenant.writer, raw: "[1]").status == 400)
            #expect(try await Self.patch(tenant.writer, raw: "<a/>", type: "application/xml").status == 415)
        }
    }

    @Test("PATCH needs settings:write, GET any key that reads; each application sees and changes only its own")
    func scopeAndIsolation() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await Self.tenant(app, keyless, name: "Alpha")
            let b = try await Self.tenant(app, keyless, name: "Bravo")
            #expect(try await Self.patch(a.reader, ["brand": "Alpha"]).status == 403)
            #expect(try await Self.patch(a.writer, ["brand": "Alpha"]).status == 200)
            #expect(try await b.reader.get("/v1/settings").json["brand"] is NSNull)
            #expect(try await a.reader.get("/v1/settings").string("brand") == "Alpha")
            // Keyless from loopback in --dev acts for the dev application, as on every /v1 route.
            #expect(try await Self.patch(keyless, ["brand": "Dev"]).status == 200)
            #expect(try await keyless.get("/v1/settings").string("application") == Application.devID)
            #expect(try await a.reader.get("/v1/settings").string("brand") == "Alpha")
        }
    }
}
