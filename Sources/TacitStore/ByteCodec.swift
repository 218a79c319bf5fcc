import Foundation

/// A small binary format for records stores write on every change: far cheaper than
/// JSON on the writer's critical path. Integers are little-endian, strings and byte
/// arrays length-prefixed, optionals flagged.
public struct ByteWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }
    public mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    public mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }
    public mutating func string(_ value: String) { data(Array(value.utf8)) }
    public mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}

public struct ByteReader {
    public struct Malformed: Error, CustomStringConvertible {
        public var description: String { "a stored record is malformed" }
    }

    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True once every byte was read: fields added at a record's end are optional, so a
    /// record written before them still reads.
    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func int() throws -> Int { Int(Int64(littleEndian: try fixed())) }
    public mutating func double() throws -> Double { Double(bitPattern: UInt64(littleEndian: try fixed())) }
    public mutating func bool() throws -> Bool {
        guard offset < bytes.count else { throw Malformed() }
        defer { offset += 1 }
        return bytes[offset] != 0
    }
    public mutating func data() throws -> [UInt8] {
        let count = try int()
        guard count >= 0, offset + count <= bytes.count else { throw Malformed() }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
    public mutating func string() throws -> String { String(decoding: try data(), as: UTF8.self) }
    public mutating func optional<T>(_ read: (inout ByteReader) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    private mutating func fixed<T: FixedWidthInteger>() throws -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= bytes.count else { throw Malformed() }
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + size]) }
        offset += size
        return value
    }
}
