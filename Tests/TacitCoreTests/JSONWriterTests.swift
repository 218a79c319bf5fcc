import Foundation
import Testing
import TacitCore

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("whole numbers are written as digits, others as Swift prints them", arguments: [
        (0.0, "0"), (7.0, "7"), (-7.0, "-7"), (100.0, "100"), (1_000_000.0, "1000000"),
        (999_999_999_999_999.0, "999999999999999"), (-120_000_000_000_000.0, "-120000000000000"),
        (1e15, "1000000000000000.0"), (2.5, "2.5"), (-0.125, "-0.125"),
    ])
    func numbers(_ value: Double, _ text: String) {
        var writer = JSONWriter()
        writer.number(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == text)
    }

    @Test("an event's member-by-member JSON is byte for byte the sorted object of its fields")
    func eventBytes() throws {
        let at = Date(timeIntervalSince1970: 1_764_500_000.123)
        for channel in [Channel.sms, nil] {
            let event = TimelineEvent(
                seq: 12, at: at, requestId: "01JDX3M6Q1W2E3R4T5Y6U7I8O9", source: .device, channel: channel,
                label: "api:check", outcome: .failure, note: "A \"quoted\" note\nover two lines",
                data: ["code": .string("••••56"), "attempts": .number(2), "nested": .object(["b": .bool(true), "a": .null])])
            var expected = JSONWriter()
            expected.value(.object([
                "at": .string(Timestamp.format(at)), "channel": channel.map { .string($0.rawValue) } ?? .null,
                "data": .object(event.data), "label": .string(event.label), "note": .string(event.note),
                "outcome": .string("failure"), "request_id": .string(event.requestId), "seq": .number(12), "source": .string("device"),
            ]))
            #expect(event.jsonBytes == expected.bytes)
            #expect(try JSONParser.parse(event.jsonBytes) == JSONParser.parse(Array(JSONEncoder().encode(event))))
        }
    }
}
