import Foundation
import Testing
@testable import TacitCore

@Suite("End reasons and step-end labels")
struct EndReasonTests {
    @Test("every named reason reads back from its wire string", arguments: Array(EndReason.wireNames.keys))
    func roundTrip(reason: EndReason) {
        #expect(EndReason(rawValue: reason.rawValue) == reason)
    }

    @Test("the wire strings are today's, unchanged")
    func wireStrings() {
        #expect(Set(EndReason.wireNames.values) == [
            "timeout", "rejected", "carrier_error", "no_coverage", "device_not_cellular", "check_url_replayed",
            "check_url_expired", "integrity_error", "unavailable", "skipped", "cancelled", "too_many_attempts",
            "sim_swapped", "provider_error", "no_provider", "rate_limited", "destination_denied",
            "fixed_line", "test_number", "geo",
        ])
        #expect(StepEndLabel.allCases.map(\.rawValue) == ["timed_out", "failed", "rejected", "skipped", "cancelled"])
    }

    @Test("a reason outside the table is kept as given")
    func otherReason() {
        #expect(EndReason(rawValue: "provider_busy") == .other("provider_busy"))
        #expect(EndReason.other("provider_busy").rawValue == "provider_busy")
    }

    @Test("each silent failure ends its step with its own reason and label", arguments: SilentFailure.allCases)
    func silentFailures(failure: SilentFailure) throws {
        var f = MachineFixture()
        try f.apply(.start(simSwapped: nil))
        let events = f.decide(.silentFailed(step: 0, failure: failure)).events
        let label: StepEndLabel = failure == .rejected ? .rejected : failure == .noCoverage ? .skipped : .failed
        #expect(events.first == .stepEnded(.silentAuth, label: label, reason: failure.endReason, isLast: false))
        #expect(EndReason.wireNames[failure.endReason] == failure.rawValue)
    }
}
