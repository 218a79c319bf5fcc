import Foundation

/// One HTTP request for a `CellularTransport`.
public struct CellularRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// The whole exchange (connect, send, receive) must finish within this.
    public var timeout: Duration

    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil,
                timeout: Duration = .seconds(5)) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP response. Redirects are returned as they are, never followed.
public struct CellularResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) },
                                  uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A header's value, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a transport could not complete an exchange.
public struct CellularTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable reason. `untrustedCertificate`: an `https://` server's certificate failed
    /// verification (unknown authority, another host's name, expired); `tlsFailed`: the TLS
    /// handshake or session failed for another reason (e.g. the server speaks plain HTTP).
    public enum Code: String, Sendable {
        case unavailable, unsupportedURL, connectionFailed, timeout, invalidResponse, cancelled
        case untrustedCertificate, tlsFailed
    }

    public var code: Code
    /// Says what failed, never which URL (check URLs carry secrets).
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "CellularTransportError(\(code.rawValue)): \(message)" }
}

/// Sends HTTP requests over a specific network path (the cellular one for
/// silent auth), without following redirects, so the caller sees every hop.
public protocol CellularTransport: Sendable {
    /// False when the path is known to be down (no cellular data): silent auth
    /// then fails at once with `device_not_cellular`.
    var isAvailable: Bool { get }

    /// Sends one request and returns its response, redirects included.
    /// Throws `CellularTransportError`; stops with `.cancelled` when the task is cancelled.
    func send(_ request: CellularRequest) async throws -> CellularResponse
}
