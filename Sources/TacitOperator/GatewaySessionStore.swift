import Foundation

/// A check the operator has issued: whose number it is, where its verdict may go, and
/// until when it may be used.
public struct GatewaySession: Sendable, Equatable {
    public var number: String
    /// The only place the gateway sends this session's verdict: the callback the
    /// caller registered when it opened the check, never one the link names later.
    public var redirectURI: String?
    public var expiresAt: Date
    public var used = false

    public init(number: String, redirectURI: String?, expiresAt: Date, used: Bool = false) {
        self.number = number
        self.redirectURI = redirectURI
        self.expiresAt = expiresAt
        self.used = used
    }
}

/// What claiming a session found.
public enum GatewayClaim: Sendable, Equatable {
    case unknown
    /// The claim's check refused the session (a link naming another callback): nothing spent.
    case refused
    case replayed(GatewaySession)
    case expired(GatewaySession)
    case fresh(GatewaySession)
}

/// Where the operator keeps its gateway sessions: its own memory (``GatewaySessions``)
/// for one process, or a store several instances share, so that a check issued
/// through one instance is claimed through any.
public protocol GatewaySessionStore: Sendable {
    /// Keeps `session` under `id`, a random id the operator chose.
    func open(_ session: GatewaySession, id: String, now: Date) async throws

    /// Marks the session used unless `accepting` refuses it, in one step: of claims
    /// racing for one session, exactly one finds it unused.
    func claim(_ id: String, now: Date,
               accepting: @escaping @Sendable (GatewaySession) -> Bool) async throws -> GatewayClaim
}
