import Foundation

/// One result row, copied out of libpq's result in text format, read by column name.
/// A column that is missing or of the wrong shape is the store's fault: it throws
/// `PostgresError.decoding` with the column's name, never its value.
public struct PostgresRow: Sendable {
    let columns: [String: Int]
    let values: [String?]

    func raw(_ name: String) throws -> String? {
        guard let index = columns[name] else { throw PostgresError.decoding(column: name) }
        return values[index]
    }

    func required(_ name: String) throws -> String {
        guard let value = try raw(name) else { throw PostgresError.decoding(column: name) }
        return value
    }

    public func string(_ name: String) throws -> String { try required(name) }
    public func optionalString(_ name: String) throws -> String? { try raw(name) }

    public func int(_ name: String) throws -> Int {
        guard let value = Int(try required(name)) else { throw PostgresError.decoding(column: name) }
        return value
    }

    public func optionalInt(_ name: String) throws -> Int? {
        try raw(name).map { text in
            guard let value = Int(text) else { throw PostgresError.decoding(column: name) }
            return value
        }
    }

    public func double(_ name: String) throws -> Double {
        guard let value = Double(try required(name)) else { throw PostgresError.decoding(column: name) }
        return value
    }

    public func optionalDouble(_ name: String) throws -> Double? {
        try raw(name).map { text in
            guard let value = Double(text) else { throw PostgresError.decoding(column: name) }
            return value
        }
    }

    public func date(_ name: String) throws -> Date { Date(timeIntervalSince1970: try double(name)) }
    public func optionalDate(_ name: String) throws -> Date? {
        try optionalDouble(name).map(Date.init(timeIntervalSince1970:))
    }

    public func bool(_ name: String) throws -> Bool { try required(name) == "t" }

    /// A `bytea` column, which the server writes in hex (`\x…`).
    public func bytes(_ name: String) throws -> [UInt8] {
        guard let bytes = Self.unhex(try required(name)) else { throw PostgresError.decoding(column: name) }
        return bytes
    }

    public func optionalBytes(_ name: String) throws -> [UInt8]? {
        try raw(name).map { text in
            guard let bytes = Self.unhex(text) else { throw PostgresError.decoding(column: name) }
            return bytes
        }
    }

    static func unhex(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
