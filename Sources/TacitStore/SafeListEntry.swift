import Foundation

/// A number or a prefix an application vouches for (docs/fraud.md#safe-list-and-risk_check):
/// its starts skip the automatic rules, never the line-type refusal or the per-number limits.
public struct SafeListEntry: Sendable, Equatable {
    public var applicationId: String
    /// A number in E.164 (`+447700900123`), or a prefix written with a trailing star (`+4477*`).
    public var entry: String
    public var createdAt: Date

    public init(applicationId: String, entry: String, createdAt: Date) {
        self.applicationId = applicationId
        self.entry = entry
        self.createdAt = createdAt
    }

    /// Whether the entry is a prefix rather than one number.
    public var isPrefix: Bool { entry.hasSuffix("*") }

    /// Whether `e164` is this number, or starts with this prefix.
    public func matches(_ e164: String) -> Bool {
        isPrefix ? e164.hasPrefix(entry.dropLast()) : e164 == entry
    }
}
