import Foundation
import TacitCore

/// What the virtual operator does for one of its numbers, decided by how the number
/// ends (docs/api.md#the-virtual-operators-numbers), longest rule first.
public enum OperatorScript: Sendable, Equatable {
    /// `…99`: the carrier answers the coverage check with an error.
    case carrierError
    /// `…98`: the number's carrier offers no silent authentication.
    case noCoverage
    /// `…97`: the gateway never gives an answer that completes.
    case neverAnswers
    /// Any other even ending (`…96` with a SIM swapped 2 hours ago).
    case completes(simSwappedHoursAgo: Int?)
    /// Any other odd ending: the SIM in the device belongs to another number.
    case rejected

    /// True when the number is a well-formed number of the operator's range.
    public static func owns(_ number: String) -> Bool {
        VirtualRange.contains(number) && number.count >= 8 && number.dropFirst().allSatisfy(\.isNumber)
    }

    /// The script for `number`, nil when the number is not the operator's.
    public static func forNumber(_ number: String) -> OperatorScript? {
        guard owns(number), let last = number.last?.wholeNumberValue else { return nil }
        switch number.suffix(2) {
        case "99": return .carrierError
        case "98": return .noCoverage
        case "97": return .neverAnswers
        case "96": return .completes(simSwappedHoursAgo: 2)
        default: return last % 2 == 0 ? .completes(simSwappedHoursAgo: nil) : .rejected
        }
    }

    /// The number of the SIM actually in the device: the number itself, except for
    /// numbers scripted to be rejected, whose device holds the SIM of the even
    /// neighbouring number (so Number Verification answers false for them).
    public static func simNumber(for number: String) -> String {
        guard forNumber(number) == .rejected, let last = number.last?.wholeNumberValue else { return number }
        return number.dropLast() + String(last - 1)
    }
}
