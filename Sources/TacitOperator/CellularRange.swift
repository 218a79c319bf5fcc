/// The source addresses the virtual operator treats as its cellular network; any
/// other source (Wi-Fi, a fixed line, `127.0.0.1`, `::1`) is not cellular.
public struct CellularRange: Sendable, Equatable {
    public var lower: UInt32
    public var upper: UInt32

    /// The default range, `127.0.0.2`–`127.0.0.254`.
    public static let loopbackDefault = CellularRange(uncheckedFrom: "127.0.0.2", to: "127.0.0.254")

    /// A range of IPv4 addresses, both ends included; nil when either end is not a
    /// dotted-quad IPv4 address or the range is empty.
    public init?(from lower: String, to upper: String) {
        guard let low = Self.parse(lower), let high = Self.parse(upper), low <= high else { return nil }
        self.lower = low
        self.upper = high
    }

    private init(uncheckedFrom lower: String, to upper: String) {
        self.lower = Self.parse(lower) ?? 0
        self.upper = Self.parse(upper) ?? 0
    }

    /// True when `address` is an IPv4 address (or an IPv4-mapped IPv6 one) in the range.
    public func contains(_ address: String) -> Bool {
        let plain = address.hasPrefix("::ffff:") ? String(address.dropFirst(7)) : address
        guard let value = Self.parse(plain) else { return false }
        return (lower...upper).contains(value)
    }

    static func parse(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
