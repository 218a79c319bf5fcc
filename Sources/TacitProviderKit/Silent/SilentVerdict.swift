import Foundation

/// A silent-auth provider's verdict on one check, read from the callback the device
/// brought back to `/v1/silent/callback`. The silent flow acts on it alone: it never
/// sees the provider's wire format.
public struct SilentVerdict: Sendable, Equatable {
    /// What the provider found.
    public enum Result: Sendable, Equatable, CaseIterable {
        /// Cellular path, and the SIM holds the number.
        case match
        /// Cellular path, but the SIM holds another number.
        case noMatch
        /// The device came over Wi-Fi or another non-cellular network.
        case notCellular
        /// The provider saw this check before.
        case replayed
        /// The provider's check had expired when the device reached it.
        case expired
        /// The provider refused the code it was asked about: not the one its check gave
        /// (a mistyped or made-up code). A wrong code, not a verdict on the SIM.
        case wrongCode
    }

    /// What the provider found.
    public var result: Result
    /// The `state` Tacit handed the provider with the check (its sealed check token),
    /// as the provider returned it.
    public var state: String
    /// The provider session the verdict is about, compared with the one the check was
    /// issued for; a verdict about another session is refused and changes nothing. nil
    /// only when the provider binds its answer to `state` itself (an authorization code
    /// that is redeemed once, server to server, for this state and redirect URI).
    public var session: String?
    /// When the verdict stops counting, when the provider says.
    public var expires: Date?

    /// The verdict `result` about the check sealed in `state`, for `session`.
    public init(result: Result, state: String, session: String?, expires: Date?) {
        self.result = result
        self.state = state
        self.session = session
        self.expires = expires
    }
}

extension SilentVerdict.Result {
    /// The result's name on the timeline.
    public var wireName: String {
        switch self {
        case .match: "match"
        case .noMatch: "no_match"
        case .notCellular: "not_cellular"
        case .replayed: "replayed"
        case .expired: "expired"
        case .wrongCode: "wrong_code"
        }
    }
}
