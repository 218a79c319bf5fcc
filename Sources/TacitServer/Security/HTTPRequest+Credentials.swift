import TacitHTTP

extension HTTPRequest {
    /// The bearer credential, if the request carries one.
    var bearer: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// Whether the caller is on this machine (127.0.0.0/8 or ::1, possibly IPv4-mapped).
    var isLoopback: Bool {
        let address = remoteAddress.hasPrefix("::ffff:") ? String(remoteAddress.dropFirst(7)) : remoteAddress
        return address.hasPrefix("127.") || address == "::1"
    }
}
