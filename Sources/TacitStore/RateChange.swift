import Foundation

/// A change to a rate-limit counter that commits with a verification's update
/// (`StoreChange.rates`), so the count and the change it counts can't come apart: a
/// crash loses both or neither, and every instance on the database sees the count at once.
public enum RateChange: Sendable, Equatable {
    /// Counts one hit on `key`, unless `limit` is full then (a full counter stays as it is
    /// and the update still commits).
    case consume(key: String, limit: RateLimit)
    /// Forgets `key`.
    case reset(key: String)

    /// The counter the change is about.
    public var key: String {
        switch self {
        case .consume(let key, _), .reset(let key): key
        }
    }
}
