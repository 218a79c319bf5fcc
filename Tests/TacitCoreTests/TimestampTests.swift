import Foundation
import Testing
import TacitCore

@Suite("Timestamps written by hand agree with Foundation")
struct TimestampTests {
    private let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    @Test("calendar edges: leap days, century years, the first and last years written by hand, and earlier years", arguments: [
        "2026-11-30T04:05:06.123Z", "2000-02-29T23:59:59.999Z", "2001-01-01T00:00:00.000Z", "2100-02-28T12:00:00.500Z",
        "2100-03-01T00:00:00.000Z", "2400-02-29T01:02:03.004Z", "9999-12-31T23:59:59.999Z", "2024-12-31T23:59:59.001Z",
        "1970-01-01T00:00:00.000Z", "1600-02-29T01:02:03.004Z",
    ])
    func edges(text: String) throws {
        let date = try #require(Timestamp.parse(text))
        #expect(Timestamp.format(date) == foundation.format(date))
        // Far from 2001 a parsed time is a hair under its millisecond, in Foundation too.
        if text.hasPrefix("20") || text.hasPrefix("21") { #expect(Timestamp.format(date) == text) }
    }

    @Test("10,000 instants from 1600 to 2400, with sub-millisecond fractions, match Foundation")
    func random() {
        var generator = SeededGenerator(seed: 20261130)
        for _ in 0..<10_000 {
            let seconds = Double.random(in: -11_676_096_000...13_569_465_600, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Timestamp.format(date) == foundation.format(date), "\(seconds)")
        }
    }

    @Test("years outside 1-9999 still format, through Foundation")
    func outside() {
        let date = Date(timeIntervalSince1970: 300_000_000_000)
        #expect(Timestamp.format(date) == foundation.format(date))
    }
}
