import Foundation
import TacitCore
@testable import TacitServer
import TacitStore
import TacitTesting
import Testing

/// The lines that let phones fill a code in (docs/locales.md#autofill): an application's
/// SMS Retriever hash on its own line, its origin-bound line `@domain #code` last, a start's
/// own hash through the Vonage face's `app_hash` and the Twilio face's `AppHash`, and the
/// templates rendered through both faces, checked on the exact bodies the provider gets.
@Suite("SMS autofill lines and templates through the faces", .timeLimit(.minutes(1)))
struct SMSAutofillTests {
    static let number = "+4915112345671"
    static let hash = "FA+9qCX9VSu"
    static let other = "Zz0/Yy1+Xx2"

    static func body(_ app: TestApplication, to number: String) -> String? {
        app.sender.messages.last { $0.to == number }?.body
    }

    static func manager(_ app: TestApplication) async throws -> ApplicationManager {
        try await ApplicationManager.open(store: try #require(app.store as? any VerificationStore & KeyStore
                                                                  & ApplicationStore))
    }

    static func autofill(_ app: TestApplication, _ id: String, hash: String?, origin: String?) async throws {
        var change = ApplicationChange()
        change.smsAppHash = hash
        change.smsOrigin = origin
        _ = try await manager(app).set(id: id, change)
    }

    @Test("the application's hash goes on its own line after the text and the origin line last; GSM-7 parts counted on it")
    func applicationSettings() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            try await Self.autofill(app, Application.devID, hash: Self.hash, origin: "Shop.Example.com")
            let (id, _) = try await keyless.start(Self.number, channels: ["sms"], extra: ["locale": "en"])
            let sent = try #require(app.sender.messages.last)
            let text = MessageText.body(channel: .sms, brand: "Tacit", code: sent.code, locale: "en")
            #expect(sent.body == "\(text)\n\(Self.hash)\n@shop.example.com #\(sent.code)")
            let events = try await keyless.get("/v1/verifications/\(id)/events").json["events"] as? [[String: Any]]
            let codeSent = try #require(events?.first { $0["label"] as? String == "sms:code_sent" })
            let data = try #require(codeSent["data"] as? [String: Any])
            let measured = SMSEncoding(sent.body)
            #expect(data["encoding"] as? String == "GSM-7" && data["segments"] as? Int == measured.segments)
        }
    }

    @Test("only an origin: the origin line ends the text; a UCS-2 template counts its parts with the lines")
    func originOnlyUCS2() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            try await Self.autofill(app, Application.devID, hash: nil, origin: "example.com")
            let manager = try #require(TemplateManager(store: app.store))
            let long = String(repeating: "認証", count: 30)
            _ = try await manager.set(application: Application.devID, channel: "sms", locale: "ja",
                                      body: "{{code}} " + long)
            let (id, _) = try await keyless.start(Self.number, channels: ["sms"], extra: ["locale": "ja"])
            let sent = try #require(app.sender.messages.last)
            #expect(sent.body == "\(sent.code) \(long)\n@example.com #\(sent.code)")
            let events = try await keyless.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""encoding":"UCS-2""#) && events.contains(#""segments":2"#))
        }
    }

    @Test("a template that places {{app_hash}} itself gets no second hash line; {{origin}} is the domain")
    func placedByTemplate() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            try await Self.autofill(app, Application.devID, hash: Self.hash, origin: "example.com")
            let manager = try #require(TemplateManager(store: app.store))
            _ = try await manager.set(application: Application.devID, channel: "sms", locale: "en",
                                      body: "<#> {{code}} for {{origin}}\n{{app_hash}}")
            _ = try await keyless.start(Self.number, channels: ["sms"], extra: ["locale": "en"])
            let sent = try #require(app.sender.messages.last)
            #expect(sent.body == "<#> \(sent.code) for example.com\n\(Self.hash)\n@example.com #\(sent.code)")
        }
    }

    @Test("apps set refuses a hash that is not 11 base64 characters and an origin that is not a domain")
    func settingsValidated() async throws {
        try await TestApplication.test(.inProcess) { app, _ in
            for (hash, origin) in [("short", nil), ("FA+9qCX9VS\n", nil), (nil, "https://example.com"),
                                   (nil, "localhost"), (nil, "exa mple.com")] as [(String?, String?)] {
                await #expect(throws: ApplicationManager.Failure.self) {
                    try await Self.autofill(app, Application.devID, hash: hash, origin: origin)
                }
            }
            let stored = try await app.store.verification(id: "none")
            #expect(stored == nil)
            let settings = try await (app.store as? any ApplicationStore)?.application(id: Application.devID)?.settings
            #expect(settings?.smsAppHash == nil && settings?.smsOrigin == nil)
        }
    }

    @Test("Vonage face: an sms step's app_hash replaces the application's and its template is used")
    func vonage() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let fixtures = try await VonageFaceFixtures.make(app)
            let vonage = try fixtures.client(client, app: app)
            try await Self.autofill(app, fixtures.a.id, hash: Self.other, origin: "acme.example")
            let manager = try #require(TemplateManager(store: app.store))
            _ = try await manager.set(application: fixtures.a.id, channel: "sms", locale: "de",
                                      body: "{{brand}}-Code: {{code}}")
            let reply = try await vonage.send("POST", "/v2/verify", json: [
                "brand": "Acme", "locale": "de-de",
                "workflow": [["channel": "sms", "to": "4915112345671", "app_hash": Self.hash]],
            ])
            #expect(reply.status == 202, "\(reply.text)")
            let sent = try #require(app.sender.messages.last)
            #expect(sent.body == "Acme-Code: \(sent.code)\n\(Self.hash)\n@acme.example #\(sent.code)")
            let bad = try await vonage.send("POST", "/v2/verify", json: [
                "brand": "Acme", "workflow": [["channel": "sms", "to": "4915112345672", "app_hash": "FA+9qCX9V\nu"]],
            ])
            #expect(bad.status == 422 && bad.text.contains("workflow[0].app_hash"))
        }
    }

    @Test("Twilio face: AppHash ends the SMS on its own line and the application's template is used")
    func twilio() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let twilio = try await TwilioCalls.make(app, client)
            let manager = try #require(TemplateManager(store: app.store))
            _ = try await manager.set(application: twilio.application.id, channel: "sms", locale: "fr",
                                      body: "Code {{brand}} : {{code}}")
            let reply = try await twilio.post(twilio.service + "/Verifications",
                                              [("To", Self.number), ("Channel", "sms"), ("Locale", "fr"),
                                               ("AppHash", Self.hash)])
            #expect(reply.status == 201, "\(reply.text)")
            let sent = try #require(app.sender.messages.last)
            #expect(sent.body == "Code Tacit : \(sent.code)\n\(Self.hash)")
            let bad = try await twilio.post(twilio.service + "/Verifications",
                                            [("To", "+4915112345672"), ("Channel", "sms"), ("AppHash", "not a hash")])
            #expect(bad.status == 400 && bad.json["code"] as? Int == 60200)
        }
    }
}
