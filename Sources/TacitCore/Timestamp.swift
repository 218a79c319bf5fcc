import Foundation

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T04:05:06.123Z`), as every Tacit JSON document writes them.
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let whole = Date.ISO8601FormatStyle()

    /// Written by hand from the civil calendar for 2001–9999 (Foundation's format style costs
    /// a calendar lookup per call, and every event carries a timestamp); other years go
    /// through Foundation. Milliseconds are truncated from the time since 2001, as
    /// Foundation truncates them, so both give the same text.
    public static func format(_ date: Date) -> String {
        let sinceReference = date.timeIntervalSinceReferenceDate
        guard sinceReference >= 0, sinceReference < 2.5e11 else { return withFraction.format(date) }
        let whole = sinceReference.rounded(.down)
        let millis = Int64(whole) * 1000 + Int64((sinceReference - whole) * 1000)
        let (days, dayMillis) = floorDivide(millis + 978_307_200_000, 86_400_000)
        let (year, month, day) = civil(daysSinceEpoch: days)
        guard year <= 9999 else { return withFraction.format(date) }
        var text = [UInt8]()
        text.reserveCapacity(24)
        func digits(_ value: Int64, _ width: Int) { text.appendDigits(UInt64(value), width: width) }
        digits(year, 4); text.append(UInt8(ascii: "-"))
        digits(month, 2); text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(dayMillis / 3_600_000, 2); text.append(UInt8(ascii: ":"))
        digits(dayMillis / 60_000 % 60, 2); text.append(UInt8(ascii: ":"))
        digits(dayMillis / 1000 % 60, 2); text.append(UInt8(ascii: "."))
        digits(dayMillis % 1000, 3); text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01, by 400-year eras.
    private static func civil(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let (era, dayOfEra) = floorDivide(shifted, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func parse(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? whole.parse(text))
    }
}
