/// One HTTP request as a handler sees it: fully read, decoded, and detached from the
/// connection it arrived on.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. "GET" or "POST".
    public var method: String
    /// The percent-decoded path without the query, e.g. "/v1/verifications/abc".
    public var path: String
    /// Decoded query parameters; when a name repeats, the last value wins.
    public var query: [String: String]
    /// Request headers with lower-cased names; repeated headers are joined with ", ".
    public var headers: [String: String]
    /// The request body, at most the server's `maxBodyBytes`.
    public var body: [UInt8]
    /// The client's IP address as text, e.g. "127.0.0.2" or "::1".
    public var remoteAddress: String
    /// Values of the route pattern's `:name` and `*name` segments, filled by `Router`.
    public var pathParameters: [String: String]
    /// The pattern of the route that matched, e.g. "/v1/verifications/:id/check"; set by `Router`.
    public var routePattern: String?

    /// Creates a request; the server builds these, tests may build them directly.
    public init(
        method: String,
        path: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        pathParameters: [String: String] = [:],
        routePattern: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
        self.remoteAddress = remoteAddress
        self.pathParameters = pathParameters
        self.routePattern = routePattern
    }

    /// The path's non-empty `/`-separated segments, split byte by byte.
    public var pathSegments: [Substring] { Self.segments(of: path) }

    /// A path's non-empty `/`-separated segments, split byte by byte.
    public static func segments(of path: String) -> [Substring] { RoutePattern.split(path) }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers[name.lowercased()]
    }
}
