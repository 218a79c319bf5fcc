import Foundation
import Testing
@testable import TacitCore

/// `.unreachable`: a step its line can't take (docs/fraud.md) ends as skipped with its reason
/// and the next one starts; the last one fails the verification; any other step is untouched.
@Suite("Unreachable steps")
struct UnreachableStepTests {
    @Test("the active step ends as skipped with its reason and the next step starts")
    func skipsToNext() throws {
        var f = MachineFixture([.sms, .voice])
        try f.apply(.start(simSwapped: nil))
        let events = f.decide(.unreachable(step: 0, reason: .fixedLine)).events
        #expect(events.first == .stepEnded(.sms, label: .skipped, reason: .fixedLine, isLast: false))
        #expect(f.statuses == [.failed, .active] && f.verification.workflow[0].endReason == .fixedLine)
    }

    @Test("on the last step the verification fails with the reason; a step that is not active changes nothing")
    func lastAndInactive() throws {
        var f = MachineFixture([.sms])
        try f.apply(.start(simSwapped: nil))
        #expect(f.decide(.unreachable(step: 3, reason: .fixedLine)).effects.isEmpty)
        #expect(f.statuses == [.active])
        _ = f.decide(.unreachable(step: 0, reason: .fixedLine))
        #expect(f.verification.status == .failed)
    }
}
