import Foundation
import Synchronization
import Testing
import TacitCore
@testable import TacitProvidersSMTP

/// Answers each submission with the next reply in line, and keeps what it was handed.
final class ScriptedTransport: SMTPTransport {
    private let state: Mutex<(replies: [SMTPReply], sent: [String])>

    init(_ replies: [SMTPReply]) { state = Mutex((replies, [])) }

    var sent: [String] { state.withLock { $0.sent } }

    func submit(_ message: [UInt8], from: String, to: String, settings: SMTPSettings) async -> SMTPReply {
        state.withLock { state in
            state.sent.append(String(decoding: message, as: UTF8.self))
            return state.replies.isEmpty ? SMTPReply(curlCode: 0, responseCode: 250) : state.replies.removeFirst()
        }
    }
}

/// A clock whose sleeps end at once: the sender's pause between tries is not what is tested.
struct ImmediateClock: TacitClock {
    func now() -> Date { Date(timeIntervalSince1970: 1_741_080_600) }
    func sleep(until deadline: Date) async throws {}
}

@Suite("SMTP sender")
struct SMTPSenderTests {
    let settings = SMTPSettings(url: "smtp://127.0.0.1:2525", username: "tacit", password: "pw", from: "codes@tacit.test")

    func message(subject: String = "Your Acme code") -> OutboundMessage {
        var message = OutboundMessage(channel: .email, to: "person@example.com",
                                      body: "Your Acme verification code is 482913.", verificationId: "v1",
                                      code: "482913", brand: "Acme")
        message.subject = subject
        message.html = "<p>Your Acme verification code is <strong>482913</strong>.</p>"
        return message
    }

    @Test("a 4xx is tried again and the 250 after it accepts, each answer a hop")
    func transientThenAccepted() async {
        let transport = ScriptedTransport([SMTPReply(curlCode: 55, responseCode: 451)])
        let sender = SMTPSender(settings: settings, transport: transport, clock: ImmediateClock())
        let result = await sender.send(message())
        #expect(result.isAccepted)
        #expect(result.attempts.map(\.refusal) == [.transient, nil])
        #expect(result.attempts.first?.errorCode == "451")
        #expect(transport.sent.count == 2)
    }

    @Test("a 5xx refuses the message for good at once, so the step fails over")
    func permanent() async {
        let transport = ScriptedTransport([SMTPReply(curlCode: 55, responseCode: 550)])
        let sender = SMTPSender(settings: settings, transport: transport, clock: ImmediateClock())
        let result = await sender.send(message())
        #expect(result.refusal == .permanent)
        #expect(result.attempts.count == 1)
        #expect(result.attempts[0].errorCode == "550")
        #expect(transport.sent.count == 1)
    }

    @Test("4xx on every try ends transient after the last try")
    func transientToTheEnd() async {
        let busy = SMTPReply(curlCode: 55, responseCode: 421)
        let transport = ScriptedTransport([busy, busy, busy])
        let sender = SMTPSender(settings: settings, transport: transport, clock: ImmediateClock())
        let result = await sender.send(message())
        #expect(result.refusal == .transient)
        #expect(result.attempts.count == 3)
    }

    @Test("the message is multipart text and HTML with Message-ID, Date and Auto-Submitted")
    func headers() async throws {
        let transport = ScriptedTransport([])
        let sender = SMTPSender(settings: settings, transport: transport, clock: ImmediateClock())
        let result = await sender.send(message())
        let text = try #require(transport.sent.first)
        #expect(text.contains("\r\nAuto-Submitted: auto-generated\r\n"))
        #expect(text.contains("\r\nMIME-Version: 1.0\r\n"))
        #expect(text.contains("\r\nDate: Tue, 04 Mar 2025 09:30:00 +0000\r\n"))
        #expect(text.contains("Content-Type: multipart/alternative; boundary="))
        #expect(text.contains("Content-Type: text/plain; charset=UTF-8"))
        #expect(text.contains("Content-Type: text/html; charset=UTF-8"))
        let id = try #require(result.acceptedBy?.messageId)
        #expect(text.contains("\r\nMessage-ID: <\(id)@tacit.test>\r\n"))
        #expect(text.hasPrefix("From: codes@tacit.test\r\nTo: person@example.com\r\nSubject: Your Acme code\r\n"))
        // Bodies travel in base64: the code is not in the raw text.
        #expect(!text.contains("482913"))
    }

    @Test("a subject that is not ASCII is sent as RFC 2047 encoded words")
    func encodedSubject() async throws {
        let transport = ScriptedTransport([])
        let sender = SMTPSender(settings: settings, transport: transport, clock: ImmediateClock())
        _ = await sender.send(message(subject: "Ihr Acme-Bestätigungscode für Ihre Anmeldung bei Acme heute"))
        let text = try #require(transport.sent.first)
        let line = try #require(text.split(separator: "\r\n", omittingEmptySubsequences: false)
            .first { $0.hasPrefix("Subject: ") })
        #expect(line.hasPrefix("Subject: =?UTF-8?B?"))
        // Folded: the words beyond the first continue on lines of their own.
        #expect(text.contains("?=\r\n =?UTF-8?B?"))
        let words = text.components(separatedBy: "=?UTF-8?B?").dropFirst().compactMap { $0.components(separatedBy: "?=").first }
        let decoded = words.compactMap { Data(base64Encoded: $0) }.reduce(Data(), +)
        #expect(String(decoding: decoded, as: UTF8.self) == "Ihr Acme-Bestätigungscode für Ihre Anmeldung bei Acme heute")
    }
}
