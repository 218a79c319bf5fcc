import Foundation
import TacitStore

/// Limits and lists that keep Tacit safe to put on the internet. Every value has a
/// default chosen from the systems Tacit is measured against (see docs/security.md).
public struct SecurityConfiguration: Sendable, Equatable {
    /// Code messages handed to a sender per number, per application (5 per 10 minutes, as
    /// hosted verification services allow).
    public var sendsPerNumber = RateLimit(5, per: 600)
    /// Code messages to one number over every application together: the ceiling that
    /// protects the number's owner however many applications ask. nil: three times
    /// `sendsPerNumber` over its window (so turning that off turns this off too).
    public var sendsPerNumberAllApplications: RateLimit?
    /// Verifications started per number per day, per application.
    public var verificationsPerNumber = RateLimit(20, per: 86_400)
    /// Verifications started for one number over every application together. nil: three
    /// times `verificationsPerNumber` over its window.
    public var verificationsPerNumberAllApplications: RateLimit?
    /// Verifications started per source address per hour.
    public var verificationsPerAddress = RateLimit(500, per: 3_600)
    /// Requests per API key per minute.
    public var requestsPerKey = RateLimit(6_000, per: 60)
    /// Requests per application per minute, over all its keys together; 0 turns it off
    /// (the default: an application's keys are already limited one by one).
    public var requestsPerApplication = RateLimit(0, per: 60)
    /// Consecutive wrong codes per number across an application's verifications before its
    /// checks for the number are refused (NIST SP 800-63B: at most 100); a right code resets the run.
    public var maxConsecutiveFailedChecks = 100
    /// Consecutive wrong codes per number over every application together before every
    /// application's checks for it are refused; a right code in any of them resets the run.
    /// nil: three times `maxConsecutiveFailedChecks`.
    public var maxConsecutiveFailedChecksAllApplications: Int?
    /// How long a run of failures is remembered without a success; a refused number
    /// may try again when it ends.
    public var failedChecksWindow: TimeInterval = 86_400

    /// Destination lists; see `DestinationPolicy`.
    public var destinations = DestinationPolicy()
    /// Refuse a start when this many distinct numbers sharing all but their last
    /// `velocityTailDigits` digits started within `velocity.window` (sequential pumping).
    public var velocity = RateLimit(10, per: 3_600)
    public var velocityTailDigits = 2
    /// Coarser blocks, each with its own budget of distinct numbers: a run spread over
    /// many hundred-blocks stays under the first guard but not under these. The default
    /// admits 30 numbers an hour from one 10,000-block, far above what ordinary sign-ups
    /// put in one block; an empty list turns them off.
    public var velocityBlocks = [VelocityBudget(tailDigits: 4, limit: RateLimit(30, per: 3_600))]

    /// Device events per verification (a count and a rate) and the size of timeline reads.
    public var timeline = TimelineLimits()

    /// Warn when fewer than this share of sent codes end in a completed verification…
    public var minimumConversion = 0.2
    /// …over a window with at least this many sends.
    public var conversionMinimumSends = 50
    public var conversionWindow: TimeInterval = 3_600

    /// The virtual operator's `+990` numbers cost nothing and exist only in `--dev`, where
    /// demos and test suites start many: number limits skip them unless this is set.
    public var limitVirtualRange = false
    /// In `--dev`, per-address limits skip loopback callers unless this is set.
    public var limitLoopbackInDev = false

    public init() {}
}

/// Which destinations may receive codes. Prefixes are E.164 (`+88213`), countries ISO
/// 3166-1 (`GB`). Allow lists, when not empty, admit only what they name; deny lists win.
/// Premium-rate, shared-cost and unassigned numbers never get this far: the phone parser
/// refuses them (`not_mobile`, `invalid`) from libphonenumber's metadata.
public struct DestinationPolicy: Sendable, Equatable {
    public var allowedCountries: Set<String> = []
    public var deniedCountries: Set<String> = []
    public var allowedPrefixes: [String] = []
    /// International networks and satellite ranges (+881, +882, +883) have no
    /// legitimate need for an app's SMS codes that outweighs how often they are pumped.
    public var deniedPrefixes: [String] = ["+881", "+882", "+883"]

    public init() {}

    /// Why `e164` (in `region`) may not receive a code, or nil when it may.
    public func refusal(e164: String, region: String?) -> String? {
        let country = region?.uppercased()
        if deniedPrefixes.contains(where: e164.hasPrefix) { return "prefix_denied" }
        if let country, deniedCountries.contains(country) { return "country_denied" }
        if !allowedCountries.isEmpty, !allowedCountries.contains(country ?? "") { return "country_not_allowed" }
        if !allowedPrefixes.isEmpty, !allowedPrefixes.contains(where: e164.hasPrefix) { return "prefix_not_allowed" }
        return nil
    }
}
