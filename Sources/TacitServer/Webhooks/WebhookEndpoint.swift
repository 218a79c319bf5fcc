import Foundation
import TacitCore
import TacitCrypto

/// A receiver of webhooks, as configured (`TACIT_WEBHOOK_URL`, `TACIT_WEBHOOK_SECRETS`,
/// `TACIT_WEBHOOK_EVENTS`, and the same names with `_2` … `_9` for more endpoints).
public struct WebhookEndpoint: Sendable, Equatable {
    public var url: String
    /// `whsec_` secrets, newest first. Every delivery carries one signature per secret,
    /// so a receiver can rotate to a new secret before the old one is dropped.
    public var secrets: [String]
    /// The event types sent here; nil sends every type.
    public var events: Set<WebhookEvent>?
    /// The application whose events go here; nil for a server-wide endpoint (the settings
    /// above), which takes the events of every application that has no endpoint of its own.
    public var applicationId: String?

    public init(url: String, secrets: [String], events: Set<WebhookEvent>? = nil, applicationId: String? = nil) {
        self.applicationId = applicationId
        self.url = url
        self.secrets = secrets
        self.events = events
    }

    /// A stable id for the outbox: derived from the URL, so a restart with the same
    /// configuration finds its pending rows, and a changed URL starts afresh.
    public var id: String { "ep_" + Hex.encode(Array(SHA256.hash(url).prefix(8))) }

    /// The host alone, for timeline notes: a URL's path or query may hold a secret.
    public var displayName: String { URL(string: url)?.host ?? "the endpoint" }

    public func accepts(_ event: WebhookEvent) -> Bool { events?.contains(event) ?? true }

    /// Why this endpoint can't be used, or nil when it can.
    public func problem() -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = parsed.host, !host.isEmpty else {
            return "the webhook URL must be an absolute http(s) URL"
        }
        guard !secrets.isEmpty else { return "a webhook needs at least one whsec_ secret" }
        for secret in secrets {
            let encoded = secret.hasPrefix(StandardWebhooks.secretPrefix) ? String(secret.dropFirst(6)) : ""
            guard let key = Base64.decode(encoded), key.count >= 24 else {
                return "webhook secrets must be whsec_ followed by base64 of at least 24 bytes"
            }
        }
        return nil
    }
}

/// How webhooks are delivered.
public struct WebhookSettings: Sendable, Equatable {
    public var endpoints: [WebhookEndpoint] = []
    /// Allows targets on private, loopback and link-local addresses (tests, private networks).
    public var allowPrivateTargets = false
    /// Time allowed for one delivery attempt.
    public var timeout: TimeInterval = 10
    public var retry = WebhookRetryPolicy()
    /// Whether this instance runs a delivery worker. An instance without one still
    /// enqueues the webhooks its changes owe; the workers of the other instances sharing
    /// its store deliver them (docs/events.md#delivery-and-retries), woken by the store's change feed.
    public var runsWorker = true

    public init() {}
}
