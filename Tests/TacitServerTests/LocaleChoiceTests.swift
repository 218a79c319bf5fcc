import Foundation
import TacitCore
@testable import TacitServer
import TacitTesting
import Testing

/// Which locale a start gets, on `/v1` and on both faces: the one it asked for (matched as
/// BCP 47 does), else its number's region's, else English; a tag no locale answers is
/// refused in each API's own shape; what was chosen and why is in the state and on the timeline.
@Suite("Locales chosen per start, on /v1 and the faces", .timeLimit(.minutes(1)))
struct LocaleChoiceTests {
    static let german = "+4915112345678"
    static let japanese = "+819012345678"

    @Test("/v1: a German number without a locale gets German, said why in the state, the timeline and its SMS")
    func byNumber() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (id, reply) = try await client.start(Self.german, channels: ["sms"])
            #expect(reply.status == 202, "\(reply.text)")
            #expect(reply.json["locale"] as? [String: String] == ["tag": "de", "source": "number"])
            await app.sender.waitFor(1)
            #expect(app.sender.messages.first?.body.contains("Code lautet") == true)
            let events = try await client.get("/v1/verifications/\(id)/events").text
            #expect(events.contains(#""locale":"de""#) && events.contains(#""locale_source":"number""#))
            #expect(events.contains(#""encoding":"GSM-7""#) && events.contains(#""segments":1"#))
        }
    }

    @Test("/v1: the start's own locale wins, its region kept for the voice, and a Japanese SMS travels as UCS-2")
    func requested() async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (id, reply) = try await client.start(Self.german, channels: ["voice"], extra: ["locale": "es-MX"])
            #expect(reply.json["locale"] as? [String: String] == ["tag": "es-mx", "source": "requested"])
            await app.sender.waitFor(1)
            let call = try #require(app.sender.messages.first)
            #expect(call.voice == "es-MX" && call.body.contains("código"))
            _ = try await client.delete("/v1/verifications/\(id)")
            let (japanese, _) = try await client.start(Self.japanese, channels: ["sms"])
            await app.sender.waitFor(2)
            #expect(app.sender.messages.last?.body.contains("確認コード") == true)
            let events = try await client.get("/v1/verifications/\(japanese)/events").text
            #expect(events.contains(#""encoding":"UCS-2""#) && events.contains(#""locale_source":"number""#))
        }
    }

    @Test("/v1: a virtual number without a locale gets the default, English")
    func byDefault() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let (_, reply) = try await client.start("+99012345670", channels: ["sms"])
            #expect(reply.json["locale"] as? [String: String] == ["tag": "en", "source": "default"])
        }
    }

    @Test("/v1: a locale no built-in one answers is a 422 naming locale, and starts nothing", arguments: ["xx-zz", "tlh"])
    func refused(tag: String) async throws {
        try await TestApplication.test(.inProcess) { app, client in
            let (_, reply) = try await client.start(Self.german, channels: ["sms"], extra: ["locale": tag])
            #expect(reply.status == 422 && reply.string("type")?.hasSuffix("invalid-parameters") == true)
            let names = (reply.json["invalid_parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["locale"])
            #expect(try await app.store.pendingCount() == 0)
        }
    }

    @Test("Vonage face: xx-zz is a 422 naming locale in Vonage's shape; no locale gets the number's")
    func vonage() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let vonage = try await VonageFaceFixtures.make(app).client(keyless, app: app)
            let refused = try await vonage.start("4915112345678", ["sms"], extra: ["locale": "xx-zz"])
            #expect(refused.status == 422 && refused.string("title") == "Invalid params")
            let names = (refused.json["invalid_parameters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["locale"])
            let started = try await vonage.start("4915112345678", ["sms"])
            let id = try #require(started.string("request_id"), "\(started.text)")
            let stored = try #require(try await app.store.verification(id: id))
            #expect(stored.locale == "de" && stored.localeSource == "number")
            await app.sender.waitFor(1)
            #expect(app.sender.messages.first?.body.contains("Code lautet") == true)
        }
    }

    @Test("Twilio face: Locale=xx-zz is 400 60200 naming Locale; no Locale gets the number's; Locale=fr wins")
    func twilio() async throws {
        try await TestApplication.test(.inProcess) { app, keyless in
            let twilio = try await TwilioCalls.make(app, keyless)
            let refused = try await twilio.post(twilio.service + "/Verifications",
                                                [("To", Self.german), ("Channel", "sms"), ("Locale", "xx-zz")])
            #expect(refused.status == 400 && refused.json["code"] as? Int == 60200)
            #expect(refused.json["message"] as? String == "Invalid parameter: Locale")
            let started = try await twilio.start(Self.german)
            let sid = try #require(started.json["sid"] as? String, "\(started.text)")
            let stored = try #require(try await app.store.verification(id: sid))
            #expect(stored.locale == "de" && stored.localeSource == "number")
            _ = try await twilio.update(sid, status: "canceled")
            let french = try await twilio.post(twilio.service + "/Verifications",
                                               [("To", Self.german), ("Channel", "sms"), ("Locale", "fr")])
            let frenchSid = try #require(french.json["sid"] as? String, "\(french.text)")
            let asked = try #require(try await app.store.verification(id: frenchSid))
            #expect(asked.locale == "fr" && asked.localeSource == "requested")
        }
    }
}
