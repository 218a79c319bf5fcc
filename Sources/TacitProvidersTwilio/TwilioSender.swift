import Foundation
import TacitCore

/// Sends codes through Twilio: SMS and WhatsApp by Programmable Messaging, voice by a call
/// that speaks TwiML. One request per message through the outbound HTTP port; the answer
/// becomes one delivery attempt with Twilio's sid, or a transient or permanent refusal.
public struct TwilioSender: MessageSender {
    let settings: TwilioSettings
    let http: any OutboundHTTPClient
    /// Seconds before a request counts as unanswered and the next provider is tried.
    let timeout: TimeInterval

    public init(settings: TwilioSettings, http: any OutboundHTTPClient, timeout: TimeInterval = 10) {
        self.settings = settings
        self.http = http
        self.timeout = timeout
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        guard let request = TwilioRequest.make(message, settings: settings, timeout: timeout) else {
            return DeliveryResult(DeliveryAttempt(provider: TwilioProvider.name, refusal: .transient,
                                                  reason: "no_provider", detail: "no From number for a call"))
        }
        do {
            return DeliveryResult(TwilioAnswer.attempt(try await http.send(request)))
        } catch {
            return DeliveryResult(TwilioAnswer.attempt(error))
        }
    }
}
