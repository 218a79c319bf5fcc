import Foundation
import TacitHTTP

/// Everything `tacit serve` can be told, by flag, `TACIT_*` environment variable or config file.
public struct ServerConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var databasePath = "./tacit.db"
    public var databaseURL: String?
    /// Turns on the virtual operator, the handset inbox and keyless loopback access.
    public var dev = false
    /// The master secret (`TACIT_SECRET`); the key file's keys are used when nil.
    public var secret: String?
    /// Secrets used before `secret`, newest first: they still open what they sealed.
    public var oldSecrets: [String] = []
    /// The key file (`TACIT_KEY_FILE`); beside the SQLite file when nil.
    public var keyFile: String?
    /// The URL devices and browsers reach this server at; derived from host and port when nil.
    public var publicURL: String?
    /// Extra latency the virtual operator adds per hop, in milliseconds.
    public var operatorLatencyMilliseconds = 0
    /// The secret shared with a separately running operator, which signs its gateway
    /// answers with a key derived from it; nil uses a fresh in-process key (dev).
    public var operatorSecret: String?
    /// The certificate chain and key to serve HTTPS with (`--tls-cert`, `--tls-key`);
    /// plain HTTP when nil.
    public var tls: TLSCredentials?
    public var threadPoolSize = 4
    public var maxInFlight = 2048
    /// Open connections one peer address may hold; 0 for no limit. Behind a proxy every
    /// connection comes from the proxy, so raise it (or turn it off) there.
    public var connectionsPerAddress = 256
    /// Rate limits, destination lists and abuse guards.
    public var security = SecurityConfiguration()
    /// How often the store's pending deadlines are read for timers this instance doesn't
    /// hold: those of another instance sharing the database that died (docs/deploy.md promises
    /// they fire within 10 s; each poll arms the next interval's, so they fire on time).
    public var timerPollInterval: TimeInterval = 5
    /// How often ended rate-limit counters and old idempotency records are deleted.
    public var housekeepingInterval: TimeInterval = 600
    /// How long an `Idempotency-Key` replays its first response, at least.
    public var idempotencyRetention: TimeInterval = 86_400
    /// Days a finished verification is kept after it finished, with its events and
    /// everything else that belongs to it (`TACIT_RETENTION_DAYS`, docs/security.md#retention).
    public var retentionDays = ServerConfiguration.defaultRetentionDays
    /// Prices of sends whose provider reports none (`TACIT_PRICES`, docs/settings.md#prices).
    public var prices = PriceTable()
    /// Webhook endpoints and delivery settings.
    public var webhooks = WebhookSettings()
    /// Routes and the messaging providers' own settings.
    public var providers = ProviderSettings()
    /// How long a request that queued a code message waits for the provider's answer
    /// before it answers with the state as it then is (`TACIT_SEND_WAIT_MS`).
    public var sendWait = ServerConfiguration.defaultSendWait
    /// In `--dev`, how long the handset inbox takes to take a message, as a slow provider
    /// would (`TACIT_DEV_INBOX_LATENCY_MS`, default 0).
    public var inboxLatencyMilliseconds = 0
    /// How long a SIGTERM'd instance keeps serving with `/readyz` at 503 before it stops
    /// listening (`TACIT_DRAIN_MS`, default 0): time for a load balancer's health check to
    /// take it out of rotation, so no new request meets a closed port or a 503.
    public var drainDelay: TimeInterval = 0

    public init() {}

    /// Where the key file is: `keyFile`, else `<database>.key`. nil for an in-memory or
    /// unnamed database, whose keys live only as long as its data (the process).
    public var keyFilePath: String? {
        if let keyFile, !keyFile.isEmpty { return keyFile }
        let db = databasePath
        guard !db.isEmpty, db != ":memory:", !db.hasPrefix("file::memory:"), !db.contains("mode=memory") else {
            return nil
        }
        return db + ".key"
    }

    /// The base URL for links this server hands out.
    public func baseURL(port actualPort: Int) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let shownHost = host == "0.0.0.0" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host
        return "\(tls == nil ? "http" : "https")://\(shownHost):\(actualPort)"
    }
}
