import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T04:05:06.123Z`), as every Tacit JSON document writes them.
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    public static func format(_ date: Date) -> String { withFraction.format(date) }

    public static func parse(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? whole.parse(text))
    }
}
