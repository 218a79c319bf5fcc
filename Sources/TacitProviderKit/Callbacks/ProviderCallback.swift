import Foundation
import TacitHTTP

/// A provider's signed status callback: `POST` at ``path``, open to callers without a key
/// since each report proves itself with the provider's signature. A provider target
/// implements it; the composition root puts it in the application's callbacks.
///
/// The provider verifies and reads a request; the server does what is the same for every
/// provider (`docs/providers.md`): it refuses a replay (the ``CallbackReading/replayKey``
/// is remembered until ``CallbackReading/replayExpiresAt``), applies a report only to the
/// active step of the verification it names, and feeds it to the engine.
public protocol ProviderCallback: Sendable {
    /// The route's path, as `/v1/callbacks/<provider>`.
    var path: String { get }
    /// Verifies `request` and reads what it reports; throws when it does not verify, or
    /// ``CallbackRejection/unconfigured`` when the provider has no secret to verify with.
    func read(_ request: HTTPRequest, context: CallbackContext) throws(CallbackRejection) -> CallbackReading
}

/// What the server knows when a callback arrives.
public struct CallbackContext: Sendable {
    /// The server's time when the request arrived, for signed issue times.
    public var now: Date
    /// The public base URL the provider was given the callback URL under.
    public var baseURL: String

    /// The context of a callback that arrived at `now` on a server reached at `baseURL`.
    public init(now: Date, baseURL: String) {
        self.now = now
        self.baseURL = baseURL
    }
}

/// What a verified callback says, and the key that must not be seen twice.
public struct CallbackReading: Sendable {
    /// The two kinds of report a callback carries.
    public enum Content: Sendable {
        /// A message's or a call's delivery status.
        case delivery(ProviderReport)
        /// A silent check's status at a provider that runs it.
        case silentStatus(ProviderSilentStatus)
    }

    /// What the callback reports.
    public var content: Content
    /// Names the signed callback; a second one with the same key is refused as a replay.
    public var replayKey: String
    /// When the key may be forgotten: once the signature could no longer pass as fresh.
    public var replayExpiresAt: Date

    /// A reading of `content`, to be remembered by `replayKey` until `replayExpiresAt`.
    public init(_ content: Content, replayKey: String, replayExpiresAt: Date) {
        self.content = content
        self.replayKey = replayKey
        self.replayExpiresAt = replayExpiresAt
    }
}

/// Why a callback was refused; each has its own problem+json answer. Descriptions never
/// carry the token or the body.
public enum CallbackRejection: Error, Equatable, Sendable {
    /// The provider has no secret to verify with: answered as if no route were there.
    case unconfigured
    case badSignature
    /// The signed issue time is outside the accepted window.
    case stale
    /// The same signed callback was already received.
    case replayed
    /// The body is not in the provider's format.
    case malformed
}
