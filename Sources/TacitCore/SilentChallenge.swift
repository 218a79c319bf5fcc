import Foundation

/// A silent check whose device ends at the provider (a hosted silent-auth service): the URL
/// the device opens is the provider's own, and Tacit completes the step only by asking
/// the provider about `reference`, server to server.
public struct SilentChallenge: Sendable, Equatable {
    /// The provider's check URL, handed to the device as it is.
    public var checkURL: String
    /// The provider that issued the check, by its route name.
    public var provider: String
    /// The provider's id for the check (its check id or sid).
    public var reference: String
    /// What the provider said the check cost, when its answer says (see `priced`).
    public private(set) var price: String?
    public private(set) var currency: String?

    public init(checkURL: String, provider: String, reference: String) {
        self.checkURL = checkURL
        self.provider = provider
        self.reference = reference
    }

    /// This challenge with the price the provider reported, kept only when both are well formed.
    public func priced(_ price: String?, currency: String?) -> SilentChallenge {
        guard let price, let currency, Price.isWellFormed(price), Price.isCurrency(currency) else { return self }
        var copy = self
        copy.price = Price.magnitude(price)
        copy.currency = currency
        return copy
    }
}

/// What a verification keeps of a ``SilentChallenge``: the step it was issued for and
/// who to ask about it. Recorded with the step's start, so completion asks the provider
/// that issued the check, whatever route is configured by then.
public struct SilentCheckReference: Sendable, Equatable {
    public var step: Int
    public var provider: String
    public var reference: String

    public init(step: Int, provider: String, reference: String) {
        self.step = step
        self.provider = provider
        self.reference = reference
    }
}
