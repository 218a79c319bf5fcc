import Foundation
import TacitHTTP

/// A route a provider brings with it (an operator's gateway, a dev tool), mounted on
/// the application's router beside its own. The server knows the route only through
/// this value: its method, pattern, how it is reached, and its handler.
public struct ProviderRoute: Sendable {
    /// Who may call the route, for the security gate.
    public enum Exposure: Sendable, Equatable {
        /// Reached by devices and other servers with their own proof (a single-use
        /// session in the path, an operator's bearer token): no API key applies.
        case open
        /// A developer tool of `--dev` (the handset inbox, the virtual phone's
        /// buttons), under `/v1/dev/`: it exists only in dev mode.
        case devTool
    }

    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// The HTTP method, as `POST`.
    public var method: String
    /// The path pattern, with `:name` segments, as the application's router takes it.
    public var pattern: String
    /// Who may call the route.
    public var exposure: Exposure
    /// Answers the request; a ``ProviderProblem`` it throws becomes its problem+json answer.
    public var handler: Handler

    /// A route for `method` requests on `pattern`, reached as `exposure` says.
    public init(_ method: String, _ pattern: String, exposure: Exposure, handler: @escaping Handler) {
        self.method = method
        self.pattern = pattern
        self.exposure = exposure
        self.handler = handler
    }

    /// A JSON answer with sorted keys that no cache keeps: what the dev tools answer,
    /// since their bodies can hold what a handset shows.
    public static func uncachedJSON<T: Encodable>(_ value: T) -> HTTPResponse {
        let bytes = (try? Array(encoder.encode(value))) ?? Array("null".utf8)
        return .json(bytes: bytes, headers: [("Cache-Control", "no-store")])
    }

    /// As the server's own answers are written: sorted keys, slashes as they are.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
