import Foundation
import TacitCore

/// Sends SMS codes through Vonage's SMS API: one request per message through the outbound
/// HTTP port; the answer becomes one delivery attempt with Vonage's message id, or a
/// transient or permanent refusal.
public struct VonageSender: MessageSender {
    let settings: VonageSettings
    let http: any OutboundHTTPClient
    /// Seconds before a request counts as unanswered and the next provider is tried.
    let timeout: TimeInterval

    public init(settings: VonageSettings, http: any OutboundHTTPClient, timeout: TimeInterval = 10) {
        self.settings = settings
        self.http = http
        self.timeout = timeout
    }

    public func send(_ message: OutboundMessage) async -> DeliveryResult {
        guard message.channel == .sms, let request = VonageRequest.make(message, settings: settings, timeout: timeout) else {
            return DeliveryResult(DeliveryAttempt(provider: VonageProvider.name, refusal: .transient, reason: "no_provider",
                                                  detail: "Vonage carries only SMS here"))
        }
        do {
            return DeliveryResult(VonageAnswer.attempt(try await http.send(request)))
        } catch {
            return DeliveryResult(VonageAnswer.attempt(error))
        }
    }
}
