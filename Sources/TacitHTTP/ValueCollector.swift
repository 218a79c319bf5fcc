/// Gathers name/value pairs that libmicrohttpd enumerates (headers or query arguments).
struct ValueCollector {
    /// Headers are case-insensitive and may repeat; query names are kept as sent.
    let isHeader: Bool
    var values: [String: String] = [:]

    mutating func add(_ name: String, _ value: String) {
        guard isHeader else {
            values[name] = value
            return
        }
        let key = name.lowercased()
        if let existing = values[key] {
            values[key] = existing + ", " + value
        } else {
            values[key] = value
        }
    }
}
