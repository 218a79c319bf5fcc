extension HTTPServer {
    /// How the server listens and how much it takes on at once.
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 literal to listen on, e.g. "127.0.0.1", "::1", "0.0.0.0", "::".
        public var host: String
        /// The TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
        public var port: Int
        /// Largest accepted request body; larger ones answer 413 without calling the handler.
        public var maxBodyBytes: Int
        /// Number of libmicrohttpd threads. They only parse and write, never wait for handlers.
        public var threadPoolSize: Int
        /// Most open connections at once, streams included.
        public var connectionLimit: Int
        /// Most open connections from one peer address; 0 for no limit. Further ones are
        /// closed as they are accepted, so one client can't take `connectionLimit` alone.
        /// Behind a proxy every connection comes from the proxy's address: raise it there.
        public var connectionsPerAddress: Int
        /// Most handlers running at once; further requests answer 503 with `Retry-After: 1`
        /// at once, except for `exemptPaths`.
        public var maxInFlight: Int
        /// Paths (exact, before routing) that bypass `maxInFlight`, e.g. health checks.
        public var exemptPaths: Set<String>
        /// Seconds an idle connection stays open. Suspended connections (a handler at work,
        /// or a stream waiting for its next chunk) never time out.
        public var connectionTimeoutSeconds: Int
        /// How long a request's headers and body may take to arrive, however steadily they
        /// trickle; past it the connection is closed. Counted from the accept, or from the
        /// previous answer on a kept-alive connection, to the last byte of the body.
        public var requestDeadline: Duration
        /// How long `shutdown()` waits for running handlers before answering them 503.
        public var shutdownGracePeriod: Duration
        /// Where libmicrohttpd's messages go (a client gone before its answer, a failed
        /// accept), each a line with every request path cut to its first segment.
        public var errorLog: @Sendable (String) -> Void
        /// When set, the server speaks HTTPS only on its port, with these credentials; a
        /// plain-HTTP request to it fails its TLS handshake and is closed.
        public var tls: TLSCredentials?

        /// Creates a configuration; every value has a default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            maxBodyBytes: Int = 65_536,
            threadPoolSize: Int = 2,
            connectionLimit: Int = 4_096,
            connectionsPerAddress: Int = 256,
            maxInFlight: Int = 1_024,
            exemptPaths: Set<String> = ["/healthz", "/readyz"],
            connectionTimeoutSeconds: Int = 30,
            requestDeadline: Duration = .seconds(20),
            shutdownGracePeriod: Duration = .seconds(5),
            errorLog: @escaping @Sendable (String) -> Void = ServerLog.standardError,
            tls: TLSCredentials? = nil
        ) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.threadPoolSize = threadPoolSize
            self.connectionLimit = connectionLimit
            self.connectionsPerAddress = connectionsPerAddress
            self.maxInFlight = maxInFlight
            self.exemptPaths = exemptPaths
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.requestDeadline = requestDeadline
            self.shutdownGracePeriod = shutdownGracePeriod
            self.errorLog = errorLog
            self.tls = tls
        }
    }
}
