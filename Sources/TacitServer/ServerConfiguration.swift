import Foundation

/// Everything `tacit serve` can be told, by flag, `TACIT_*` environment variable or config file.
public struct ServerConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var databasePath = "./tacit.db"
    public var databaseURL: String?
    /// Turns on the virtual operator, the handset inbox and keyless loopback access.
    public var dev = false
    /// The master secret; generated and kept in the store when nil.
    public var secret: String?
    /// The URL devices and browsers reach this server at; derived from host and port when nil.
    public var publicURL: String?
    /// Extra latency the virtual operator adds per hop, in milliseconds.
    public var operatorLatencyMilliseconds = 0
    /// The secret shared with a separately running operator, which signs its gateway
    /// answers with a key derived from it; nil uses a fresh in-process key (dev).
    public var operatorSecret: String?
    public var threadPoolSize = 4
    public var maxInFlight = 2048
    /// Rate limits, destination lists and abuse guards.
    public var security = SecurityConfiguration()
    /// How often ended rate-limit counters and old idempotency records are deleted.
    public var housekeepingInterval: TimeInterval = 600
    /// How long an `Idempotency-Key` replays its first response, at least.
    public var idempotencyRetention: TimeInterval = 86_400
    /// Webhook endpoints and delivery settings.
    public var webhooks = WebhookSettings()
    /// Secrets for verifying provider callbacks.
    public var callbacks = CallbackSettings()
    /// Routes and the messaging providers' own settings.
    public var providers = ProviderSettings()

    public init() {}

    /// The base URL for links this server hands out.
    public func baseURL(port actualPort: Int) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(actualPort)"
    }
}
