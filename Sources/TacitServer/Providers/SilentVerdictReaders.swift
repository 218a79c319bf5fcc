import Foundation

/// The verdict readers of every provider whose device ends at Tacit, chosen by the
/// provider that issued the check: the callback's ``SilentCallback/provider`` comes
/// from Tacit's sealed check token, never from the query, so a callback can't pick the
/// reader that judges it. One server can then run the virtual operator for `+990`
/// numbers and an operator's Number Verification for the others, each answer read by
/// its own provider's reader.
public struct SilentVerdictReaders: SilentVerdictReader {
    let byProvider: [String: any SilentVerdictReader]
    /// For a provider without a reader of its own (the virtual operator, whose reader
    /// the dev providers set), and for tokens sealed before the provider was kept.
    let fallback: any SilentVerdictReader

    public init(byProvider: [String: any SilentVerdictReader], fallback: any SilentVerdictReader) {
        self.byProvider = byProvider
        self.fallback = fallback
    }

    public func verdict(for callback: SilentCallback) async -> SilentVerdict? {
        let reader = callback.provider.flatMap { byProvider[$0] } ?? fallback
        return await reader.verdict(for: callback)
    }
}
