import Foundation
import TacitCore
import TacitCrypto

/// Sends email codes through one mail server. Each answer is a provider hop: 250 accepts
/// the message; a 4xx (or no answer at all) is transient and tried again, a little later,
/// up to `tries` times within the send's lease; a 5xx refuses it for good, so the step
/// fails and the workflow moves on (docs/providers.md#smtp). No address, code or
/// credential goes into a hop.
struct SMTPSender: MessageSender {
    let settings: SMTPSettings
    let transport: any SMTPTransport
    let clock: any TacitClock
    /// Submissions per message, at most.
    var tries = 3
    /// The pause before the second try; it doubles after each.
    var backoff: TimeInterval = 0.25

    func send(_ message: OutboundMessage) async -> DeliveryResult {
        guard message.channel == .email else { return .refused(reason: "no_provider") }
        let id = "m" + Hex.encode(SecureRandom.bytes(12))
        var email = SMTPMessage(from: settings.from, to: message.to, subject: message.subject, text: message.body,
                                html: message.html, id: id, date: clock.now(),
                                boundary: "tacit-" + Hex.encode(SecureRandom.bytes(12)))
        var attempts: [DeliveryAttempt] = []
        var pause = backoff
        for attempt in 1...tries {
            email.date = clock.now()
            let reply = await transport.submit(email.bytes, from: settings.from, to: message.to, settings: settings)
            let hop = Self.attempt(reply, messageId: id)
            attempts.append(hop)
            guard hop.refusal == .transient, attempt < tries else { break }
            do { try await clock.sleep(until: clock.now().addingTimeInterval(pause)) } catch { break }
            pause *= 2
        }
        let last = attempts[attempts.count - 1]
        return DeliveryResult(refusal: last.refusal, reason: last.reason, attempts: attempts)
    }

    /// The hop one reply makes.
    static func attempt(_ reply: SMTPReply, messageId: String) -> DeliveryAttempt {
        let code = reply.responseCode
        if reply.curlCode == 0 { return .accepted(by: SMTPProvider.name, messageId: messageId) }
        switch code {
        case 500...599:
            return DeliveryAttempt(provider: SMTPProvider.name, refusal: .permanent, reason: "undeliverable",
                                   errorCode: String(code), detail: "the mail server refused the message")
        case 400...499:
            return DeliveryAttempt(provider: SMTPProvider.name, refusal: .transient, reason: "provider_error",
                                   errorCode: String(code), detail: "the mail server asked to try again later")
        default:
            return DeliveryAttempt(provider: SMTPProvider.name, refusal: .transient, reason: "provider_unreachable",
                                   detail: "no answer from the mail server (libcurl \(reply.curlCode))")
        }
    }
}
