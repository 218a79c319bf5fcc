import Foundation
import Testing
@testable import TacitCore

@Suite("Redactor")
struct RedactorTests {
    @Test("each kind of value is stored as its redacted form", arguments: [
        (EventValue.phone("+99012345670"), JSONValue.string("+99•••••5670")),
        (.phone("+14155551234"), .string("+14•••••1234")),
        (.phone("+1234"), .string("•••••")),
        (.phone("+44 (0) 7700-900123"), .string("+44•••••0123")),
        (.phone("1234567"), .string("•••••")),
        (.phone("+٤٤٧٧٠٠٩٠٠١٢٣"), .string("•••••")),
        (.code("123456"), .string("••••56")),
        (.code("12345678"), .string("••••••78")),
        (.code("1234"), .string("••••")),
        (.secret, .string("[redacted]")),
        (.text("hello"), .string("hello")),
        (.text("code 123456"), .string("code ••••56")),
        (.int(42), .number(42)),
        (.bool(true), .bool(true)),
        (.null, .null),
        (.date(Date(timeIntervalSince1970: 0)), .string("1970-01-01T00:00:00.000Z")),
        (.list([.code("987654"), .int(1)]), .array([.string("••••54"), .number(1)])),
        (.object(["to": .phone("+99012345670")]), .object(["to": .string("+99•••••5670")])),
    ])
    func values(value: EventValue, expected: JSONValue) {
        #expect(Redactor.redact(value) == expected)
    }

    @Test("free text loses numbers, codes and tokens but keeps short numbers and already-redacted tails", arguments: [
        ("call +99012345670 now", "call +99•••••5670 now"),
        ("call 99012345670 now", "call +99•••••5670 now"),
        ("your code is 482913.", "your code is ••••13."),
        ("pin 1234", "pin ••••"),
        ("step 2 of 3, 60 seconds, 120 ms", "step 2 of 3, 60 seconds, 120 ms"),
        ("token ct_AbCdEfGhIjKlMnOp here", "token [redacted] here"),
        ("sent to +99•••••5670 again", "sent to +99•••••5670 again"),
        ("short 5551234", "short •••••"),
        ("•1234 and •12345", "•1234 and ••••45"),
        ("+1234", "+••••"),
        ("12+3456", "12+••••"),
        ("a+b + 12", "a+b + 12"),
        ("•••••5671234", "••••••••••"),
        ("+99•••••5671 then 4821", "+99•••••5671 then ••••"),
        ("+99•••••5670, +44•••••1234.", "+99•••••5670, +44•••••1234."),
        ("•+1234", "•+••••"),
        ("••1234", "••1234"),
    ])
    func scrub(text: String, expected: String) {
        #expect(Redactor.scrub(text) == expected)
    }

    @Test("a stored event has its label, note and data redacted and keeps its place")
    func event() {
        let draft = EventDraft("device:typed", channel: .sms, source: .device, outcome: .failure,
                               note: "typed 123456 for 99012345670", data: ["code": .code("123456"), "token": .secret])
        let event = Redactor.event(draft, seq: 3, at: Date(timeIntervalSince1970: 1), requestId: "vf_1")
        #expect(event.seq == 3 && event.requestId == "vf_1" && event.source == .device && event.channel == .sms)
        #expect(event.note == "typed ••••56 for +99•••••5670")
        #expect(event.data == ["code": .string("••••56"), "token": .string("[redacted]")])
    }

    @Test("the timeout path records the timer firing before the step times out")
    func timerFiredEvent() throws {
        var verification = Verification(id: "vf_1", phoneNumber: "+99012345670", options: VerificationOptions(workflow: [.sms, .voice]),
                                        clientTokenHash: [], createdAt: Date(timeIntervalSince1970: 0))
        var machine = WorkflowMachine(verification, now: Date(timeIntervalSince1970: 0))
        _ = machine.handle(.start(simSwapped: nil))
        verification = machine.verification
        var later = WorkflowMachine(verification, now: Date(timeIntervalSince1970: 60))
        let labels = later.handle(.timerFired(step: 0)).effects.compactMap { effect -> String? in
            if case .emit(let event) = effect { return event.label }
            return nil
        }
        #expect(labels.prefix(2) == ["timer:fired", "sms:timed_out"])
    }
}
