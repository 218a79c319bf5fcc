import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// What Tacit puts on the wire for WhatsApp (Messages API) and calls (Voice API), and how it
/// reads their answers, through the recording HTTP client.
@Suite("Vonage Messages and Voice API requests and answers")
struct VonageApplicationRequestTests {
    static let applicationId = "0b3e6a4f-5c2d-4e1f-9a8b-7c6d5e4f3a2b"
    static let issued = Date(timeIntervalSince1970: 1_796_111_398)

    struct Setup {
        var credentials: VonageApplicationCredentials
        var publicKey: RSAPublicKey
    }

    func withCredentials(template: String? = "acme:verify_code", _ body: (Setup) async throws -> Void) async throws {
        let pair = try await OpenSSLKeys.shared()
        let credentials = VonageApplicationCredentials(applicationId: Self.applicationId, privateKey: try RSAPrivateKey(pem: pair.privatePEM),
                                                       apiURL: "http://127.0.0.1:9/", whatsappFrom: "+447700900001",
                                                       voiceFrom: "447700900002", whatsappTemplate: template,
                                                       publicURL: "https://tacit.example/")
        try await body(Setup(credentials: credentials, publicKey: try RSAPublicKey(pem: pair.publicPEM)))
    }

    static func message(_ channel: Channel, locale: String = "en-gb", language: String = "en") -> OutboundMessage {
        let body = MessageText.body(channel: channel, brand: "Acme", code: "482913", locale: locale)
        return OutboundMessage(channel: channel, to: "+447700900123", body: body, verificationId: "vf_abc", step: 1,
                               language: language, locale: locale, code: "482913", brand: "Acme")
    }

    static func sent(_ message: OutboundMessage, _ credentials: VonageApplicationCredentials,
                     answer: OutboundResponse) async throws -> (DeliveryResult, OutboundRequest, [String: JSONValue]) {
        let http = RecordingHTTPClient { _ in answer }
        let result = await VonageSender(settings: nil, application: credentials, http: http, now: { issued }).send(message)
        let request = try #require(http.requests.first)
        return (result, request, try JSONDecoder().decode([String: JSONValue].self, from: Data(request.body)))
    }

    static let messageAccepted = OutboundResponse(status: 202, body: Array(#"{"message_uuid":"aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"}"#.utf8))

    @Test("WhatsApp with a template goes to /v1/messages as message_type template, the code its one parameter, in the locale's language")
    func template() async throws {
        try await withCredentials { setup in
            let (result, request, body) = try await Self.sent(Self.message(.whatsapp), setup.credentials, answer: Self.messageAccepted)
            #expect(request.url.absoluteString == "http://127.0.0.1:9/v1/messages")
            #expect(request.headers.first { $0.0 == "Content-Type" }?.1 == "application/json")
            #expect(body["message_type"] == .string("template") && body["channel"] == .string("whatsapp"))
            #expect(body["to"] == .string("447700900123") && body["from"] == .string("447700900001"))
            #expect(body["template"] == .object(["name": .string("acme:verify_code"), "parameters": .array([.string("482913")])]))
            #expect(body["whatsapp"] == .object(["policy": .string("deterministic"), "locale": .string("en_GB")]))
            #expect(body["client_ref"] == .string("vf_abc:1"))
            #expect(body["webhook_url"] == .string("https://tacit.example/v1/callbacks/vonage"))
            #expect(body["text"] == nil)
            #expect(result.attempts.first?.messageId == "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee")
        }
    }

    @Test("the Bearer token is an RS256 JWT with the application id, iat, a jti and exp fifteen minutes on, checked with the public key")
    func token() async throws {
        try await withCredentials { setup in
            let (_, request, _) = try await Self.sent(Self.message(.whatsapp), setup.credentials, answer: Self.messageAccepted)
            let header = try #require(request.headers.first { $0.0 == "Authorization" }?.1)
            #expect(header.hasPrefix("Bearer "))
            let claims = try JWT.verify(token: String(header.dropFirst(7)), publicKey: setup.publicKey, now: Self.issued)
            #expect(claims["application_id"] == .string(Self.applicationId))
            #expect(claims["iat"] == .int(1_796_111_398) && claims["exp"] == .int(1_796_111_398 + 900))
            #expect(claims["jti"]?.stringValue.flatMap(UUID.init(uuidString:)) != nil)
        }
    }

    @Test("WhatsApp without a template goes as text; pt goes as pt_BR and a locale in another language keeps only the language", arguments: [
        ("pt", "pt", "pt_BR"), ("pt-pt", "pt", "pt_PT"), ("it-it", "en", "en"), ("de", "de", "de"),
    ])
    func textAndLocales(locale: String, language: String, expected: String) async throws {
        #expect(VonageMessagesRequest.locale(Self.message(.whatsapp, locale: locale, language: language)) == expected)
        try await withCredentials(template: nil) { setup in
            let (_, _, body) = try await Self.sent(Self.message(.whatsapp), setup.credentials, answer: Self.messageAccepted)
            #expect(body["message_type"] == .string("text"))
            #expect(body["text"]?.stringValueForTest?.hasSuffix("482913. For your security, do not share this code.") == true)
            #expect(body["template"] == nil && body["whatsapp"] == nil)
        }
    }

    @Test("a call goes to /v1/calls with one NCCO talk of the voice text in the locale's voice, and the step in the event URL")
    func call() async throws {
        try await withCredentials { setup in
            let answer = OutboundResponse(status: 201, body: Array(#"{"uuid":"63f61863-4a51-4f6b-86e1-46edebcf9356","status":"started","direction":"outbound","conversation_uuid":"CON-1"}"#.utf8))
            let (result, request, body) = try await Self.sent(Self.message(.voice), setup.credentials, answer: answer)
            #expect(request.url.absoluteString == "http://127.0.0.1:9/v1/calls")
            #expect(body["to"] == .array([.object(["type": .string("phone"), "number": .string("447700900123")])]))
            #expect(body["from"] == .object(["type": .string("phone"), "number": .string("447700900002")]))
            #expect(body["event_url"] == .array([.string("https://tacit.example/v1/callbacks/vonage?ref=vf_abc:1")]))
            guard case .array(let ncco)? = body["ncco"], case .object(let talk)? = ncco.first else { Issue.record("no ncco"); return }
            #expect(ncco.count == 1 && talk["action"] == .string("talk") && talk["language"] == .string("en-GB"))
            let text = try #require(talk["text"]?.stringValueForTest)
            #expect(text.components(separatedBy: "4, 8, 2, 9, 1, 3").count == 3, "the code digit by digit, twice")
            #expect(result.attempts.first?.messageId == "63f61863-4a51-4f6b-86e1-46edebcf9356")
        }
    }

    @Test("a voice in a locale Vonage has no voice for falls back to the language's default", arguments: [
        ("fr-be", "fr", "fr-FR"), ("es-mx", "es", "es-MX"), ("pt", "pt", "pt-BR"), ("de-at", "de", "de-DE"),
    ])
    func voices(locale: String, language: String, expected: String) {
        #expect(VonageVoiceRequest.language(Self.message(.voice, locale: locale, language: language)) == expected)
    }

    @Test("errors: a barred number is permanent; throttling, credentials, credit and outages are transient, with Vonage's code", arguments: [
        (422, "https://developer.nexmo.com/api-errors/messages-olympus#1050", true, "number_blocked", "1050"),
        (429, "https://developer.nexmo.com/api-errors/messages-olympus#1000", false, "provider_throttled", "1000"),
        (401, "https://developer.nexmo.com/api-errors#unauthorized", false, "provider_credentials", nil),
        (402, "https://developer.nexmo.com/api-errors/#low-balance", false, "provider_quota", nil),
        (500, "https://developer.nexmo.com/api-errors/messages-olympus#1030", false, "provider_error", "1030"),
    ] as [(Int, String, Bool, String, String?)])
    func errors(status: Int, type: String, permanent: Bool, reason: String, code: String?) async throws {
        try await withCredentials { setup in
            let problem = #"{"type":"\#(type)","title":"Error","detail":"Message to +447700900123 failed","instance":"bf0ca0bf"}"#
            let (result, _, _) = try await Self.sent(Self.message(.whatsapp), setup.credentials,
                                                     answer: OutboundResponse(status: status, body: Array(problem.utf8)))
            let attempt = try #require(result.attempts.first)
            #expect(attempt.refusal == (permanent ? .permanent : .transient))
            #expect(attempt.reason == reason && attempt.errorCode == code)
            #expect(!(attempt.detail ?? "").contains("447700900123"))
        }
    }

    @Test("an accepted answer without a message_uuid, and no answer at all, are transient")
    func missingAnswers() async throws {
        try await withCredentials { setup in
            let (result, _, _) = try await Self.sent(Self.message(.whatsapp), setup.credentials, answer: OutboundResponse(status: 202, body: []))
            #expect(result.attempts.first?.refusal == .transient)
            let http = RecordingHTTPClient { _ throws(OutboundHTTPError) in throw OutboundHTTPError(code: "connection_refused") }
            let unanswered = await VonageSender(settings: nil, application: setup.credentials, http: http).send(Self.message(.voice))
            #expect(unanswered.attempts.first?.reason == "provider_unreachable")
        }
    }

    @Test("SMS without the SMS API's settings is a transient no_provider, never a request")
    func smsWithoutSMSAPI() async throws {
        try await withCredentials { setup in
            let http = RecordingHTTPClient()
            let result = await VonageSender(settings: nil, application: setup.credentials, http: http).send(Self.message(.sms))
            #expect(result.attempts.first?.reason == "no_provider")
            #expect(http.requests.isEmpty)
        }
    }
}

extension JSONValue {
    var stringValueForTest: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
