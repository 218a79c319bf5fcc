import Foundation

/// Sends and conversions of one application's destination prefix (docs/fraud.md#prefix-blocks):
/// in one time bucket when written, or summed over the window when read back.
public struct PrefixCount: Sendable, Equatable {
    public var applicationId: String
    /// E.164 digits without `+`: the country code and the next digits, 4 to 8 in all.
    public var prefix: String
    /// The bucket's number, counted from 1970 in bucket lengths; 0 in a window's sum.
    public var bucket: Int64
    public var sends: Int
    public var conversions: Int

    public init(applicationId: String, prefix: String, bucket: Int64, sends: Int = 0, conversions: Int = 0) {
        self.applicationId = applicationId
        self.prefix = prefix
        self.bucket = bucket
        self.sends = sends
        self.conversions = conversions
    }
}

/// An application's destination prefix blocked by the automatic rule, with the figures that
/// decided it; kept after it ends so the next block of the prefix lasts longer.
public struct PrefixBlock: Sendable, Equatable {
    public var applicationId: String
    public var prefix: String
    /// The rule that fired: `low_conversion` or `new_volume`.
    public var rule: String
    public var blockedAt: Date
    public var blockedUntil: Date
    /// Which block of the prefix in a row this is (1, 2, 3…): its duration grows with it.
    public var strikes: Int
    /// The window's figures when it was decided.
    public var sends: Int
    public var conversions: Int
    /// The application's own conversion over the window then, nil when it had too few sends.
    public var baseline: Double?
    /// Until when the rule leaves the prefix alone after an operator unblocked it.
    public var pardonedUntil: Date?

    public init(applicationId: String, prefix: String, rule: String, blockedAt: Date, blockedUntil: Date,
                strikes: Int, sends: Int, conversions: Int, baseline: Double?, pardonedUntil: Date? = nil) {
        self.applicationId = applicationId
        self.prefix = prefix
        self.rule = rule
        self.blockedAt = blockedAt
        self.blockedUntil = blockedUntil
        self.strikes = strikes
        self.sends = sends
        self.conversions = conversions
        self.baseline = baseline
        self.pardonedUntil = pardonedUntil
    }

    public func isActive(at now: Date) -> Bool { blockedUntil > now }
}

/// What a flush of the prefix counters reads back: every application's prefix sums over the
/// window, and the blocks still in force or still counted toward a repeat.
public struct PrefixLedgerSnapshot: Sendable, Equatable {
    public var totals: [PrefixCount]
    public var blocks: [PrefixBlock]

    public init(totals: [PrefixCount], blocks: [PrefixBlock]) {
        self.totals = totals
        self.blocks = blocks
    }
}
