import Foundation
import TacitCore

/// What reached `/v1/silent/callback`: the redirect's query, and a way to look up the
/// number a check was issued for (an operator's Number Verification call needs it).
public struct SilentCallback: Sendable {
    /// The redirect's query parameters.
    public var query: [String: String]
    /// The phone number of the verification whose sealed check token is `state`; nil
    /// when this server did not issue it.
    public var phoneNumber: @Sendable (_ state: String) async -> String?
    /// The URL the provider's `begin` issued for the check whose sealed token is `state`,
    /// as Tacit sealed it: what a reader bound into its challenge (an OIDC flow's PKCE
    /// nonce) comes back from here, never from the query. nil when this server did not seal it.
    public var issuedURL: @Sendable (_ state: String) async -> String?
    /// The provider that issued the check (its route name), from Tacit's sealed token:
    /// whose reader judges this callback. nil for a token sealed before it was kept.
    public var provider: String?
    /// Puts an event on the timeline of the check whose sealed token is `state`, while its
    /// step is active: how a reader that gives no verdict says why (an operator's answer
    /// without the field it must carry), since its nil alone tells the timeline nothing.
    public var note: @Sendable (_ state: String, _ event: EventDraft) async -> Void

    /// A callback with `query`, and the lookups the server offers its reader.
    public init(query: [String: String], phoneNumber: @escaping @Sendable (String) async -> String? = { _ in nil },
                issuedURL: @escaping @Sendable (String) async -> String? = { _ in nil }, provider: String? = nil,
                note: @escaping @Sendable (String, EventDraft) async -> Void = { _, _ in }) {
        self.query = query
        self.phoneNumber = phoneNumber
        self.issuedURL = issuedURL
        self.provider = provider
        self.note = note
    }
}

/// The port that turns a silent callback into a verdict, for providers whose device
/// ends at Tacit. The virtual operator's reader checks its signed answer; an operator's
/// reader redeems the authorization `code` at the operator's token endpoint, server to
/// server, and asks Number Verification. Providers whose device ends at the provider
/// (a Verify API's silent check, a subscriber check) use ``SilentProviderCheck`` instead. Outbound calls go
/// through ``OutboundHTTPClient``.
///
/// A reader judges one thing: that the verdict is the provider's. It must never take
/// one from what the device brings alone (an unsigned `result`, a code not redeemed
/// with the provider). Everything else is the silent flow's, whatever the reader says,
/// so no adapter can loosen it: the callback is the one the check was registered with;
/// `state` is Tacit's sealed check token; the verdict's session is the check's; the
/// device that brings it holds the cookie its check URL set; and the check is used once.
public protocol SilentVerdictReader: Sendable {
    /// The verdict, or nil when the callback is not authentic (a wrong signature, an
    /// unknown or spent code): the callback then fails without touching any step.
    func verdict(for callback: SilentCallback) async -> SilentVerdict?
}

/// Used when no silent-auth provider answers callbacks: every callback is refused.
public struct NoSilentVerdicts: SilentVerdictReader {
    /// The reader that refuses everything.
    public init() {}
    /// nil, always.
    public func verdict(for callback: SilentCallback) async -> SilentVerdict? { nil }
}
