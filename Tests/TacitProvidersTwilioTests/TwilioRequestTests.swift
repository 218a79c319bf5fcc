import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersTwilio

/// What Tacit puts on the wire for each channel, read from the recording HTTP client.
@Suite("Twilio requests: Messages.json and Calls.json as the SDK sends them")
struct TwilioRequestTests {
    static let sid = "AC" + String(repeating: "0a", count: 16)
    static let settings = TwilioSettings(accountSid: sid, authToken: "secret-token", from: "+15005550006",
                                         apiURL: "http://127.0.0.1:9/", publicURL: "https://tacit.example/")
    static func message(_ channel: Channel, body: String = "Your Acme code is 123456.", language: String = "en", locale: String = "en-us") -> OutboundMessage {
        OutboundMessage(channel: channel, to: "+447700900123", body: body, verificationId: "vf_abc", step: 1,
                        language: language, locale: locale)
    }

    /// Sends one message through a recording client answering 201, and returns the request and its form.
    static func sent(_ message: OutboundMessage, settings: TwilioSettings = settings) async throws -> (OutboundRequest, [String: String], [String]) {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 201, body: Array(#"{"sid":"SM\#(String(repeating: "1", count: 32))"}"#.utf8)) }
        _ = await TwilioSender(settings: settings, http: http).send(message)
        let request = try #require(http.requests.first)
        let pairs = form(request.body)
        return (request, Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), pairs.map(\.name))
    }

    /// Decodes `application/x-www-form-urlencoded` pairs, in order.
    static func form(_ body: [UInt8]) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    @Test("an SMS is a form POST to Messages.json with HTTP Basic, From, Body and the status callback with the step's reference")
    func sms() async throws {
        let (request, form, names) = try await Self.sent(Self.message(.sms))
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/2010-04-01/Accounts/\(Self.sid)/Messages.json")
        let headers = Dictionary(request.headers, uniquingKeysWith: { $1 })
        #expect(headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(headers["Authorization"] == "Basic " + Data("\(Self.sid):secret-token".utf8).base64EncodedString())
        #expect(names == ["To", "From", "Body", "StatusCallback"])
        #expect(form["To"] == "+447700900123")
        #expect(form["From"] == "+15005550006")
        #expect(form["Body"] == "Your Acme code is 123456.")
        #expect(form["StatusCallback"] == "https://tacit.example/v1/callbacks/twilio?ref=vf_abc:1")
        #expect(String(decoding: request.body, as: UTF8.self).contains("To=%2B447700900123"))
        #expect(String(decoding: request.body, as: UTF8.self).contains("Body=Your+Acme+code+is+123456."))
    }

    @Test("a Messaging Service replaces From, and WhatsApp addresses both ends as whatsapp:+…")
    func messagingServiceAndWhatsApp() async throws {
        var service = Self.settings
        service.from = nil
        service.messagingServiceSid = "MG" + String(repeating: "2", count: 32)
        let (_, form, names) = try await Self.sent(Self.message(.sms), settings: service)
        #expect(names == ["To", "MessagingServiceSid", "Body", "StatusCallback"])
        #expect(form["MessagingServiceSid"] == service.messagingServiceSid)

        let (_, whatsapp, _) = try await Self.sent(Self.message(.whatsapp))
        #expect(whatsapp["To"] == "whatsapp:+447700900123")
        #expect(whatsapp["From"] == "whatsapp:+15005550006")
    }

    @Test("a voice code is a POST to Calls.json whose Twiml says the text in the locale's voice, XML-escaped")
    func voice() async throws {
        let text = MessageText.body(channel: .voice, brand: "A&B <Bank>", code: "4721", locale: "en-gb")
        let (request, form, names) = try await Self.sent(Self.message(.voice, body: text, locale: "en-gb"))
        #expect(request.url.path == "/2010-04-01/Accounts/\(Self.sid)/Calls.json")
        #expect(names == ["To", "From", "Twiml", "StatusCallback"])
        let twiml = try #require(form["Twiml"])
        #expect(twiml.hasPrefix(#"<Response><Say language="en-GB">"#))
        #expect(twiml.hasSuffix("</Say></Response>"))
        #expect(twiml.contains("A&amp;B &lt;Bank&gt;"))
        #expect(twiml.components(separatedBy: "4, 7, 2, 1").count == 3)
    }

    @Test("the voice is the locale's own where Twilio has one, else its language's, else English", arguments: [
        ("de", "de", "de-DE"), ("pt", "pt-pt", "pt-PT"), ("pt", "pt-br", "pt-BR"), ("es", "es-mx", "es-MX"),
        ("fr", "fr-ch", "fr-FR"), ("en", "it-it", "en-US"),
    ])
    func voices(language: String, locale: String, voice: String) {
        #expect(TwiML.voice(language: language, locale: locale) == voice)
    }

    @Test("without a public URL no status callback is sent, and without a From number no call is placed")
    func withoutPublicURLOrFrom() async throws {
        var quiet = Self.settings
        quiet.publicURL = nil
        let (_, _, names) = try await Self.sent(Self.message(.sms), settings: quiet)
        #expect(!names.contains("StatusCallback"))

        var serviceOnly = Self.settings
        serviceOnly.from = nil
        serviceOnly.messagingServiceSid = "MG" + String(repeating: "2", count: 32)
        let http = RecordingHTTPClient()
        let result = await TwilioSender(settings: serviceOnly, http: http).send(Self.message(.voice))
        #expect(http.requests.isEmpty)
        #expect(result.refusal == .transient)
        #expect(!serviceOnly.channels.contains(.voice))
    }
}
