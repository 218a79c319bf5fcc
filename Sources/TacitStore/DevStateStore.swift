import Foundation

/// A gateway session of the virtual operator as the store keeps it: the number is sealed
/// at rest like every other number, and `used` flips once, on the first claim.
public struct DevGatewaySession: Sendable, Equatable {
    public var number: String
    /// The only callback the gateway may send this session's verdict to.
    public var redirectURI: String?
    public var expiresAt: Date
    public var used: Bool

    public init(number: String, redirectURI: String?, expiresAt: Date, used: Bool = false) {
        self.number = number
        self.redirectURI = redirectURI
        self.expiresAt = expiresAt
        self.used = used
    }
}

/// What one claim of a gateway session found, decided in one transaction.
public enum DevGatewayClaim: Sendable, Equatable {
    case unknown
    /// `accepting` refused the session: nothing was spent.
    case refused
    /// Used before this claim.
    case replayed(DevGatewaySession)
    /// Claimed now, but past its expiry.
    case expired(DevGatewaySession)
    /// Claimed now, for the first time and in time.
    case fresh(DevGatewaySession)
}

/// A message on a virtual handset's screen.
public struct DevInboxMessage: Sendable, Equatable {
    public var channel: String
    public var body: String
    /// When it arrived, as the timeline writes times.
    public var at: String

    public init(channel: String, body: String, at: String) {
        self.channel = channel
        self.body = body
        self.at = at
    }
}

/// The state `--dev`'s providers keep (the virtual operator's gateway sessions and
/// signing key, the handsets' inboxes), kept by the store so that several instances on
/// one database share it (docs/postgres.md#--dev-on-several-instances): a check opened through one instance continues
/// through another, and a code sent through one shows in every instance's inbox.
/// Numbers, message bodies and secrets are sealed with the store's field protection.
public protocol DevStateStore: Sendable {
    /// Keeps a new session under `id` (random, chosen by the operator).
    func openGatewaySession(id: String, _ session: DevGatewaySession) async throws

    /// Claims session `id` unless `accepting` refuses it: one transaction, so of claims
    /// racing through several instances exactly one finds it unused.
    func claimGatewaySession(id: String, now: Date,
                             accepting: @escaping @Sendable (DevGatewaySession) -> Bool) async throws -> DevGatewayClaim

    /// Forgets sessions that expired before `cutoff`; returns how many.
    func sweepGatewaySessions(expiredBefore cutoff: Date) async throws -> Int

    /// Adds a message to `number`'s inbox, keeping only its newest `keeping` messages.
    func appendInboxMessage(_ message: DevInboxMessage, to number: String, keeping: Int) async throws

    /// `number`'s messages, oldest first.
    func inboxMessages(for number: String) async throws -> [DevInboxMessage]

    /// The secret stored under `name`, or `proposed` stored there now when there is none
    /// (or none this store's keys can open): instances starting together agree on one.
    func devSecret(_ name: String, proposed: [UInt8]) async throws -> [UInt8]
}
