import Foundation
import TacitCore

/// An application's stored verifications over a span of creation times, read in pages, oldest
/// first: what `tacit fraud backtest` replays (docs/fraud.md#backtest). Reads only.
public protocol VerificationHistoryStore: Sendable {
    /// Up to `limit` of `application`'s verifications created at `since` or later and before
    /// `until`, ordered by creation time (then id), skipping the first `offset` of them.
    func verifications(application: String, createdFrom since: Date, before until: Date, offset: Int,
                       limit: Int) async throws -> [Verification]
}
