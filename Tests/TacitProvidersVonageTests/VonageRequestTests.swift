import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// What Tacit puts on the wire for an SMS, read from the recording HTTP client.
@Suite("Vonage requests: /sms/json as the SDK sends it")
struct VonageRequestTests {
    static let settings = VonageSettings(apiKey: "abcd1234", apiSecret: "s3cr3t-value", from: "AcmeCo",
                                         restURL: "http://127.0.0.1:9/", publicURL: "https://tacit.example/")
    static func message(body: String = "Your Acme code is 123456.", channel: Channel = .sms) -> OutboundMessage {
        OutboundMessage(channel: channel, to: "+447700900123", body: body, verificationId: "vf_abc", step: 1)
    }

    static let accepted = #"{"message-count":"1","messages":[{"to":"447700900123","message-id":"0A0000000123ABCD1","status":"0"}]}"#

    /// Sends one message through a recording client answering as Vonage does, and returns the request and its form.
    static func sent(_ message: OutboundMessage, settings: VonageSettings = settings) async throws -> (OutboundRequest, [String: String], [String]) {
        let http = RecordingHTTPClient { _ in OutboundResponse(status: 200, body: Array(accepted.utf8)) }
        _ = await VonageSender(settings: settings, http: http).send(message)
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

    @Test("an SMS is a form POST to /sms/json with HTTP Basic, the number without its plus, the reference and the callback URL")
    func sms() async throws {
        let (request, form, names) = try await Self.sent(Self.message())
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "http://127.0.0.1:9/sms/json")
        let headers = Dictionary(request.headers, uniquingKeysWith: { $1 })
        #expect(headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(headers["Authorization"] == "Basic " + Data("abcd1234:s3cr3t-value".utf8).base64EncodedString())
        #expect(names == ["to", "from", "text", "client-ref", "callback"])
        #expect(form["to"] == "447700900123")
        #expect(form["from"] == "AcmeCo")
        #expect(form["text"] == "Your Acme code is 123456.")
        #expect(form["client-ref"] == "vf_abc:1")
        #expect(form["callback"] == "https://tacit.example/v1/callbacks/vonage")
        #expect(String(decoding: request.body, as: UTF8.self).contains("text=Your+Acme+code+is+123456."))
    }

    @Test("the API secret travels only in the Authorization header, never in the form")
    func secretPlacement() async throws {
        let (request, form, _) = try await Self.sent(Self.message())
        #expect(!String(decoding: request.body, as: UTF8.self).contains("s3cr3t-value"))
        #expect(form["api_secret"] == nil && form["api_key"] == nil)
    }

    @Test("a text outside GSM 7-bit is sent as type=unicode, and one inside it, extension characters included, is not",
          arguments: [("Votre code Acme est 123456.", false), ("Dein Bestätigungscode: 123456 [€]", false), ("Su código es 123456", true), ("Ваш код 123456", true),
                      ("您的验证码 123456", true), ("Code 123456 🙂", true)])
    func unicode(text: String, isUnicode: Bool) async throws {
        let (_, form, names) = try await Self.sent(Self.message(body: text))
        #expect(form["text"] == text)
        #expect((form["type"] == "unicode") == isUnicode)
        #expect(names.contains("type") == isUnicode)
    }

    @Test("without a public URL no callback is asked for")
    func noPublicURL() async throws {
        var settings = Self.settings
        settings.publicURL = nil
        let (_, _, names) = try await Self.sent(Self.message(), settings: settings)
        #expect(names == ["to", "from", "text", "client-ref"])
    }

    @Test("a channel other than SMS is refused transiently without a request, so the router moves on")
    func otherChannels() async throws {
        let http = RecordingHTTPClient()
        let result = await VonageSender(settings: Self.settings, http: http).send(Self.message(channel: .voice))
        #expect(result.refusal == .transient)
        #expect(http.requests.isEmpty)
    }
}
