import Foundation
import TacitCore
import TacitServer

/// Webhook settings, from `TACIT_*` variables or the config file:
/// `TACIT_WEBHOOK_URL`, `TACIT_WEBHOOK_SECRETS` (space-separated `whsec_…`, newest first),
/// `TACIT_WEBHOOK_EVENTS` (comma-separated types, default all), the same with `_2` … `_9`
/// for more endpoints, `TACIT_WEBHOOK_ALLOW_PRIVATE=1`. The providers' callback secrets
/// are provider settings (`ServeProviders.callbacks`).
extension ServerSettings {
    static func applyWebhooks(to configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        var endpoints: [WebhookEndpoint] = []
        for suffix in [""] + (2...9).map({ "-\($0)" }) {
            guard let url = setting("webhook-url" + suffix), !url.isEmpty else { continue }
            let secrets = (setting("webhook-secrets" + suffix) ?? "").split(separator: " ").map(String.init)
            let endpoint = WebhookEndpoint(url: url, secrets: secrets,
                                           events: try events(setting("webhook-events" + suffix)))
            if let problem = endpoint.problem() {
                let variable = "TACIT_WEBHOOK_URL" + suffix.replacingOccurrences(of: "-", with: "_")
                throw Arguments.UsageError(message: "\(variable): \(problem)")
            }
            endpoints.append(endpoint)
        }
        configuration.webhooks.endpoints = endpoints
        let allowPrivate = (setting("webhook-allow-private") ?? "").lowercased()
        configuration.webhooks.allowPrivateTargets = ["1", "true", "yes"].contains(allowPrivate)
    }

    private static func events(_ text: String?) throws -> Set<WebhookEvent>? {
        guard let text, !text.isEmpty else { return nil }
        var events: Set<WebhookEvent> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let event = WebhookEvent(rawValue: name) else {
                throw Arguments.UsageError(message: "unknown webhook event type \(name)")
            }
            events.insert(event)
        }
        return events
    }
}
