import Foundation
import TacitStore

/// How much a device may write to a verification's timeline, and how much one read or
/// export returns. A device that floods its verification is refused with 429 long before
/// the timeline grows past what a read can page through; the events the server writes
/// (steps, codes, the cancel, the summary) are never refused and never counted here.
public struct TimelineLimits: Sendable, Equatable {
    /// Device events one verification may hold in all. A device that reports each thing it
    /// does (opening the check URL, each hop, each key typed) writes a few dozen. 0 turns the cap off.
    public var maxDeviceEvents = 1_000
    /// Device events a verification may post back to back before the steady rate applies.
    public var deviceEventBurst = 60
    /// The steady rate after a burst: `limit` device events every `window` seconds (one a
    /// second by default), refilled evenly, so a device that keeps to it is never refused.
    /// A limit of 0 turns the rate off.
    public var deviceEventRate = RateLimit(60, per: 60)

    /// Events one `GET …/events` answers when the caller names no `limit`, and the most it
    /// may name; past it the answer carries `next_after`.
    public var pageSize = 1_000
    /// Events one export holds at most. Every event the server wrote is always in it; device
    /// events fill what is left, and the export says how many it left out.
    public var exportEvents = 10_000

    public init() {}
}
