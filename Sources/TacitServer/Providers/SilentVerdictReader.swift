import Foundation

/// What reached `/v1/silent/callback`: the redirect's query, and a way to look up the
/// number a check was issued for (a CAMARA Number Verification call needs it).
public struct SilentCallback: Sendable {
    public var query: [String: String]
    /// The phone number of the verification whose sealed check token is `state`; nil
    /// when this server did not issue it.
    public var phoneNumber: @Sendable (_ state: String) async -> String?

    public init(query: [String: String], phoneNumber: @escaping @Sendable (String) async -> String? = { _ in nil }) {
        self.query = query
        self.phoneNumber = phoneNumber
    }
}

/// The port that turns a silent callback into a verdict. The virtual operator's
/// reader checks its signed answer; a CAMARA reader would redeem the authorization
/// `code` at the operator's token endpoint and ask Number Verification; a provider
/// with its own verdict (Vonage, tru.ID) would ask its API. Outbound calls go through
/// ``OutboundHTTPClient``.
public protocol SilentVerdictReader: Sendable {
    /// The verdict, or nil when the callback is not authentic (a wrong signature, an
    /// unknown or spent code): the callback then fails without touching any step.
    func verdict(for callback: SilentCallback) async -> SilentVerdict?
}

/// Used when no silent-auth provider answers callbacks: every callback is refused.
public struct NoSilentVerdicts: SilentVerdictReader {
    public init() {}
    public func verdict(for callback: SilentCallback) async -> SilentVerdict? { nil }
}
