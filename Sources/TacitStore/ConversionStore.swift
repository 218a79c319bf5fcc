import Foundation
import Synchronization

/// What the conversion monitor counts: a code handed to a provider, or a code check that
/// completed a verification.
public enum ConversionEvent: String, Sendable {
    case sent, verified
}

/// One window of the send-to-verify count, shared by every instance on the store.
/// `slot` numbers windows from 1970 (`Int(time / window length)`), so every instance puts
/// an event in the same window whatever its start time.
public struct ConversionWindow: Sendable, Equatable {
    public var slot: Int64
    public var sends: Int
    public var verified: Int

    public init(slot: Int64, sends: Int = 0, verified: Int = 0) {
        self.slot = slot
        self.sends = sends
        self.verified = verified
    }
}

/// The conversion monitor's windows, kept in the store so several instances add to one
/// count and one of them judges each window.
public protocol ConversionStore: Sendable {
    /// Adds `counts` to its window (`counts.slot`), and in the same transaction takes the
    /// windows before it: they are removed, and the latest of them is returned to be
    /// judged. Only one caller takes a window, so a window is judged once across
    /// instances; nil when there was none. Counts for a window older than one already
    /// counted into are dropped: that window has been taken and judged, and counting into
    /// it again would bring it back to be judged a second time, on a few late events.
    func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow?
}

/// Windows kept in this process's memory: for the in-memory store, and a store that keeps none.
public final class ProcessConversionWindows: ConversionStore {
    private let windows = Mutex<[Int64: ConversionWindow]>([:])

    public init() {}

    public func countConversions(_ counts: ConversionWindow) async throws -> ConversionWindow? {
        windows.withLock { windows in
            let slot = counts.slot
            if !windows.keys.contains(where: { $0 > slot }) {
                var current = windows[slot] ?? ConversionWindow(slot: slot)
                current.sends += counts.sends
                current.verified += counts.verified
                windows[slot] = current
            }
            let closed = windows.values.filter { $0.slot < slot }
            for window in closed { windows.removeValue(forKey: window.slot) }
            return closed.max { $0.slot < $1.slot }
        }
    }
}
