import Foundation

extension ServerConfiguration {
    /// The default (docs/security.md#retention): a month, after which a timeline export is how one is kept.
    public static let defaultRetentionDays = 30
    static let defaultRetention = TimeInterval(defaultRetentionDays) * 86_400

    /// `retentionDays` in seconds.
    public var retention: TimeInterval { TimeInterval(retentionDays) * 86_400 }
}
