import Foundation
import TacitCrypto
import TacitHTTP
import TacitStore

/// A face as one running application serves it: built once by `CompatibleFace.serve(in:)`,
/// so what it caches (parsed keys, replayed token ids) lives as long as the application.
public protocol ServedFace: Sendable {
    /// Adds the face's routes, each declared `RouteSecurity.face(name)` or open.
    func register(_ routes: inout RouteTable)
    /// The application the request's own credential acts for; throws the face's refusal.
    func authenticate(_ request: HTTPRequest) async throws -> String
    /// The verification the request's path names, if it names one; the gate then requires
    /// the acting application to own it.
    func verificationID(in request: HTTPRequest) -> String?
    /// Whether `id` has the face's id form: anything else is never looked up.
    func isVerificationID(_ id: String) -> Bool
    /// What the face answers for a verification the caller can't see.
    func notFound(_ request: HTTPRequest) -> any Error
    /// The face's own answer for a refusal (its own errors, the gate's and the guards'
    /// `APIProblem`s translated, anything else as a 503 without internals).
    func response(for error: any Error, to request: HTTPRequest) -> HTTPResponse
    /// The answer to a request at one of the face's paths that no route takes.
    func unrouted(_ request: HTTPRequest, answer: HTTPResponse) -> HTTPResponse
    /// Where one of the face's callback rows goes now, and signed how; nil when the
    /// application has no target for it (the row is then dropped quietly).
    func callbackTarget(for message: OutboxMessage) async -> FaceCallbackTarget?
}

extension ServedFace {
    public func unrouted(_ request: HTTPRequest, answer: HTTPResponse) -> HTTPResponse { answer }
    public func callbackTarget(for message: OutboxMessage) async -> FaceCallbackTarget? { nil }
}

/// Where a face's callback is delivered: the application's URL and the headers of this
/// attempt (a signature made fresh per attempt). The webhook dispatcher delivers it as any
/// webhook, through the same target guard, retries and timeline.
public struct FaceCallbackTarget: Sendable {
    public var url: URL
    public var headers: [(String, String)]

    public init(url: URL, headers: [(String, String)]) {
        self.url = url
        self.headers = headers
    }
}

/// How a face's callback rows name their endpoint: the face's name, then the application.
public enum FaceCallbacks {
    public static func endpoint(face: String, application: String) -> String { face + ":" + application }

    /// What a 410 from `url` disables for the rows of `endpoint`: the application's
    /// callbacks to that URL, so no other application's and no later URL's are touched.
    public static func disabledKey(endpoint: String, url: URL) -> String {
        endpoint + "@" + Hex.encode(Array(SHA256.hash(url.absoluteString).prefix(8)))
    }

    /// The application an endpoint of `face` names, or nil when it isn't one of the face's.
    public static func application(in endpoint: String, face: String) -> String? {
        let prefix = face + ":"
        return endpoint.hasPrefix(prefix) ? String(endpoint.dropFirst(prefix.count)) : nil
    }
}
