import Foundation

/// One HTTP request that Tacit sends to the outside (a webhook, a provider's API).
public struct OutboundRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Seconds before the request is given up.
    public var timeout: TimeInterval

    public init(method: String = "POST", url: URL, headers: [(String, String)] = [], body: [UInt8] = [],
                timeout: TimeInterval = 10) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    public static func == (lhs: OutboundRequest, rhs: OutboundRequest) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeout == rhs.timeout
            && lhs.headers.map(\.0) == rhs.headers.map(\.0) && lhs.headers.map(\.1) == rhs.headers.map(\.1)
    }
}

/// What came back. Header names are lower-cased.
public struct OutboundResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why no HTTP answer came: refused, timed out, TLS failed. Carries no URL, since
/// a provider's URL may hold credentials.
public struct OutboundHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: String
    public init(code: String) { self.code = code }
    public var description: String { "outbound request failed (\(code))" }
}

/// The port every outbound call goes through: webhooks now, providers later. One
/// implementation for production (URLSession, redirects never followed), one
/// recording fake for tests, so that no test can reach a real host by accident.
public protocol OutboundHTTPClient: Sendable {
    func send(_ request: OutboundRequest) async throws(OutboundHTTPError) -> OutboundResponse
}
