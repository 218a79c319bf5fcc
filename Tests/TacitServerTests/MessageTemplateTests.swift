import Foundation
import TacitCore
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// Applications' own message templates (docs/locales.md#templates): set, listed, read and
/// deleted over `/v1/templates`, refused by their rules with a 422 naming the reason, used in
/// place of the built-in text by BCP 47 lookup, and kept apart between applications.
@Suite("Message templates per application", .timeLimit(.minutes(1)))
struct MessageTemplateTests {
    static let german = "+4915112345678"
    static let number = "+4915112345671"

    static func put(_ client: TestClient, _ channel: String, _ locale: String, _ fields: [String: Any]) async throws
        -> TestResponse {
        try await client.send("PUT", "/v1/templates/\(channel)/\(locale)",
                              body: try JSONSerialization.data(withJSONObject: fields))
    }

    static func lastBody(_ app: TestApplication, to number: String) async -> String? {
        app.sender.messages.last { $0.to == number }?.body
    }

    /// An application with a key that may write templates and one that may not.
    static func tenant(_ app: TestApplication, name: String) async throws
        -> (application: Application, writer: String, reader: String) {
        let store = try #require(app.store as? any VerificationStore & KeyStore & ApplicationStore)
        let made = try await ApplicationManager.open(store: store).create(name: name)
        let (_, writer) = try await KeyManager(store: store).create(
            name: "templates", scopes: [Scope.read, Scope.write, Scope.templatesWrite], application: made.application.id)
        return (made.application, writer, made.credentials.apiKey)
    }

    @Test("a template set over HTTP words the next SMS in its locale, with the brand, code and minutes filled in")
    func setThenRender() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let put = try await Self.put(client, "sms", "de", ["body": "{{brand}}: {{code}} gilt {{minutes}} Min."])
            #expect(put.status == 200, "\(put.text)")
            #expect(put.string("channel") == "sms" && put.string("locale") == "de")
            #expect(put.string("encoding") == "GSM-7" && put.json["segments"] as? Int == 1)
            let (id, reply) = try await client.start(Self.german, channels: ["sms"],
                                                     extra: ["brand": "Shop", "channel_timeout": 180])
            #expect(reply.status == 202, "\(reply.text)")
            let sent = try #require(app.sender.messages.last)
            #expect(sent.to == Self.german && sent.body == "Shop: \(sent.code) gilt 3 Min.")
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""template":"de""#) && events.contains(#""encoding":"GSM-7""#))
        }
    }

    @Test("lookup falls back as BCP 47 does: es-ar takes the es template; a locale without one keeps the built-in text")
    func fallback() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            #expect(try await Self.put(client, "sms", "es", ["body": "Codigo {{code}}"]).status == 200)
            _ = try await client.start(Self.number, channels: ["sms"], extra: ["locale": "es-AR"])
            let code = try #require(app.sender.lastCode(to: Self.number))
            #expect(await Self.lastBody(app, to: Self.number) == "Codigo \(code)")
            _ = try await client.start("+4915112345672", channels: ["sms"], extra: ["locale": "fr"])
            let french = try #require(app.sender.messages.last)
            #expect(french.body == MessageText.body(channel: .sms, brand: "Tacit", code: french.code, locale: "fr"))
        }
    }

    @Test("a voice template is spoken with the code digit by digit")
    func voice() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            #expect(try await Self.put(client, "voice", "en", ["body": "Code {{code}}. Again, {{code}}."]).status == 200)
            _ = try await client.start(Self.number, channels: ["voice"], extra: ["locale": "en", "code_length": 4])
            let body = try #require(await Self.lastBody(app, to: Self.number))
            let code = try #require(app.sender.messages.last?.code)
            let spoken = code.map(String.init).joined(separator: ", ")
            #expect(body == "Code \(spoken). Again, \(spoken).")
        }
    }

    @Test("GET lists and reads the templates; DELETE removes one, the built-in text returns, and a second DELETE is 404")
    func listReadDelete() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            #expect(try await Self.put(client, "sms", "DE", ["body": "A {{code}}"]).status == 200)
            #expect(try await Self.put(client, "email", "de", ["body": "B {{code}}", "subject": "Ihr {{brand}}-Code"])
                .status == 200)
            let listed = try await client.get("/v1/templates")
            let templates = try #require(listed.json["templates"] as? [[String: Any]])
            #expect(templates.map { "\($0["channel"]!)/\($0["locale"]!)" } == ["email/de", "sms/de"])
            #expect(templates[0]["subject"] as? String == "Ihr {{brand}}-Code" && templates[0]["encoding"] == nil)
            #expect(try await client.get("/v1/templates/sms/de").string("body") == "A {{code}}")
            #expect(try await client.get("/v1/templates/sms/fr").status == 404)
            #expect(try await client.delete("/v1/templates/sms/de").status == 204)
            #expect(try await client.delete("/v1/templates/sms/de").status == 404)
            _ = try await client.start(Self.german, channels: ["sms"])
            #expect(await Self.lastBody(app, to: Self.german)?.contains("Code lautet") == true)
        }
    }

    @Test("refused with 422 naming the reason", arguments: [
        ("sms", "de", ["body": "no code here"], "body", "must contain {{code}}"),
        ("sms", "de", ["body": "{{code}} {{name}}"], "body", "has the unknown placeholder {{name}}"),
        ("voice", "de", ["body": "{{code}} {{app_hash}}"], "body", "has the unknown placeholder {{app_hash}}"),
        ("sms", "de", ["body": "{{code}} " + String(repeating: "x", count: 900)], "body", "SMS segments"),
        ("fax", "de", ["body": "{{code}}"], "channel", "must be one of"),
        ("sms", "xx-zz", ["body": "{{code}}"], "locale", "is not a locale Tacit has messages for"),
        ("sms", "de", ["body": "{{code}}", "subject": "S"], "subject", "is only for channel email"),
        ("sms", "de", ["text": "{{code}}"], "body", "is required"),
    ])
    func refused(channel: String, locale: String, fields: [String: String], name: String, reason: String) async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let reply = try await Self.put(client, channel, locale, fields)
            #expect(reply.status == 422, "\(reply.text)")
            #expect(reply.header("Content-Type")?.hasPrefix("application/problem+json") == true)
            let problems = reply.json["invalid_parameters"] as? [[String: String]] ?? []
            #expect(problems.contains { $0["name"] == name && $0["reason"]?.contains(reason) == true }, "\(reply.text)")
            let listed = try await client.get("/v1/templates").json["templates"] as? [Any]
            #expect(listed?.isEmpty == true)
        }
    }

    @Test("six SMS segments are allowed, seven are not, measured with the longest code, brand and autofill lines")
    func segmentLimit() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            // 6 parts hold 918 septets; the longest fill adds 10 + 18 digits and letters and a 12-septet hash line.
            let six = "{{code}}{{brand}}" + String(repeating: "x", count: 918 - 28 - 12)
            let fits = try await Self.put(client, "sms", "en", ["body": six])
            let over = try await Self.put(client, "sms", "en", ["body": six + "x"])
            #expect(fits.status == 200 && fits.json["segments"] as? Int == 6, "\(fits.text)")
            #expect(over.status == 422 && over.text.contains("would take 7 SMS segments"), "\(over.text)")
        }
    }

    @Test("PUT and DELETE need templates:write; a key that reads may list; keyless from loopback acts for dev")
    func scope() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let tenant = try await Self.tenant(app, name: "Shop")
            let reader = keyless.bearer(tenant.reader), writer = keyless.bearer(tenant.writer)
            #expect(try await Self.put(reader, "sms", "de", ["body": "{{code}}"]).status == 403)
            #expect(try await reader.delete("/v1/templates/sms/de").status == 403)
            #expect(try await Self.put(writer, "sms", "de", ["body": "{{code}}"]).status == 200)
            #expect((try await reader.get("/v1/templates").json["templates"] as? [Any])?.count == 1)
            #expect(try await Self.put(keyless, "sms", "fr", ["body": "{{code}}"]).status == 200)
            let store = try #require(app.store as? any TemplateStore)
            #expect(try await store.templates(application: Application.devID).map(\.locale) == ["fr"])
            #expect(try await store.templates(application: tenant.application.id).map(\.locale) == ["de"])
        }
    }

    @Test("two applications' templates stay apart: each start gets its own, neither sees nor deletes the other's")
    func isolation() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let a = try await Self.tenant(app, name: "Alpha"), b = try await Self.tenant(app, name: "Bravo")
            let clientA = keyless.bearer(a.writer), clientB = keyless.bearer(b.writer)
            #expect(try await Self.put(clientA, "sms", "en", ["body": "Alpha {{code}}"]).status == 200)
            #expect(try await Self.put(clientB, "sms", "en", ["body": "Bravo {{code}}"]).status == 200)
            _ = try await clientA.start(Self.number, channels: ["sms"], extra: ["locale": "en"])
            _ = try await clientB.start("+4915112345672", channels: ["sms"], extra: ["locale": "en"])
            #expect(await Self.lastBody(app, to: Self.number)?.hasPrefix("Alpha ") == true)
            #expect(await Self.lastBody(app, to: "+4915112345672")?.hasPrefix("Bravo ") == true)
            #expect(try await clientA.get("/v1/templates/sms/en").string("body") == "Alpha {{code}}")
            #expect(try await clientA.delete("/v1/templates/sms/en").status == 204)
            #expect(try await clientA.delete("/v1/templates/sms/en").status == 404)
            #expect(try await clientB.get("/v1/templates/sms/en").string("body") == "Bravo {{code}}")
            _ = try await keyless.start("+4915112345673", channels: ["sms"], extra: ["locale": "en"])
            #expect(await Self.lastBody(app, to: "+4915112345673")?.hasPrefix("Bravo") == false)
        }
    }
}
