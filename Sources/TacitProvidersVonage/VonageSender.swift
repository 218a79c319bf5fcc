import Foundation
import TacitCore
import TacitCrypto

/// Sends codes through Vonage: SMS by the SMS API (API key and secret), WhatsApp by the
/// Messages API and calls by the Voice API (both with the Vonage application's JWT). One
/// request per message through the outbound HTTP port; the answer becomes one delivery
/// attempt with Vonage's id, or a transient or permanent refusal.
public struct VonageSender: MessageSender {
    let settings: VonageSettings?
    let application: VonageApplicationCredentials?
    let http: any OutboundHTTPClient
    /// Seconds before a request counts as unanswered and the next provider is tried.
    let timeout: TimeInterval
    /// The wall clock the application's tokens are issued by.
    let now: @Sendable () -> Date

    public init(settings: VonageSettings?, application: VonageApplicationCredentials? = nil,
                http: any OutboundHTTPClient, timeout: TimeInterval = 10,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.application = application
        self.http = http
        self.timeout = timeout
        self.now = now
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        switch message.channel {
        case .sms:
            guard let settings, let request = VonageRequest.make(message, settings: settings, timeout: timeout) else {
                break
            }
            return await send(request) { VonageAnswer.attempt($0) } unanswered: { VonageAnswer.attempt($0) }
        case .whatsapp, .voice:
            guard let application else { break }
            return await sendWithApplication(message, application)
        case .silentAuth, .email:
            break
        }
        return DeliveryResult(VonageAPIAnswer.refused(.transient, reason: "no_provider", code: nil,
                                                      detail: "Vonage is not set up for this channel here"))
    }

    private func sendWithApplication(
        _ message: OutboundMessage, _ application: VonageApplicationCredentials
    ) async -> DeliveryResult {
        let authorization: String
        do {
            authorization = try VonageApplicationToken.header(application, now: now())
        } catch {
            return DeliveryResult(VonageAPIAnswer.refused(.transient, reason: "provider_error", code: nil,
                                                          detail: "the application's token could not be signed"))
        }
        let voice = message.channel == .voice
        let request = voice
            ? VonageVoiceRequest.make(message, credentials: application, authorization: authorization, timeout: timeout)
            : VonageMessagesRequest.make(message, credentials: application, authorization: authorization,
                                         timeout: timeout)
        guard let request else {
            return DeliveryResult(VonageAPIAnswer.refused(.transient, reason: "no_provider", code: nil,
                                                          detail: "no Vonage sender for this channel"))
        }
        let idField = voice ? "uuid" : "message_uuid"
        return await send(request) { VonageAPIAnswer.attempt($0, idField: idField) } unanswered: {
            VonageAPIAnswer.attempt($0)
        }
    }

    private func send(_ request: OutboundRequest, answered: (OutboundResponse) -> DeliveryAttempt,
                      unanswered: (OutboundHTTPError) -> DeliveryAttempt) async -> DeliveryResult {
        do {
            return DeliveryResult(answered(try await http.send(request)))
        } catch {
            return DeliveryResult(unanswered(error))
        }
    }
}
