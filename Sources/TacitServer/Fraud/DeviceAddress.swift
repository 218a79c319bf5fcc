import Foundation

/// The end user's address a start names (`device_ip` on `/v1`, a face's own field), as
/// the app's backend saw it (docs/security.md#the-end-users-address): an IPv4 or IPv6
/// literal, read into one spelling so the per-address limit counts one device once.
public enum DeviceAddress {
    /// The address in its canonical form (`inet_ntop`'s; an IPv4-mapped IPv6 address as its
    /// IPv4 one), or nil when `text` is not an IPv4 or IPv6 literal: no name, no port, no zone.
    public static func normalized(_ text: String) -> String? {
        guard (2...45).contains(text.utf8.count), !text.contains("%") else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { string(family: AF_INET, $0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1,
              let canonical = withUnsafeBytes(of: v6, { string(family: AF_INET6, $0) }) else { return nil }
        if canonical.hasPrefix("::ffff:"), canonical.contains(".") { return String(canonical.dropFirst(7)) }
        return canonical
    }

    /// The text of `address`, the bytes of an `in_addr` or an `in6_addr` as `family` says.
    private static func string(family: Int32, _ address: UnsafeRawBufferPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, address.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
