/// One dispatched server-sent event.
public struct SSEMessage: Sendable, Equatable {
    /// The last `id:` seen so far in the stream (SSE carries it over between events).
    public var id: String?
    public var event: String?
    /// The `data:` lines joined with newlines.
    public var data: String
    public var retry: Int?

    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}

/// An incremental parser for `text/event-stream` (WHATWG HTML §9.2).
///
/// Feed it bytes as they arrive, split anywhere (even inside a UTF-8 sequence
/// or between `\r` and `\n`); it returns the events completed by each chunk.
public struct SSEParser: Sendable {
    private var line: [UInt8] = []
    private var skipNextLF = false
    private var data: [String] = []
    private var hasData = false
    private var event: String?
    private var retry: Int?
    /// The last event id the stream set; what a reconnect sends as `Last-Event-ID`.
    public private(set) var lastEventId: String?

    public init() {}

    /// Consumes a chunk and returns the events it completes.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [SSEMessage] where Bytes.Element == UInt8 {
        var out: [SSEMessage] = []
        for byte in bytes {
            if skipNextLF {
                skipNextLF = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                skipNextLF = byte == 0x0D
                if let message = endLine() { out.append(message) }
            } else {
                line.append(byte)
            }
        }
        return out
    }

    private mutating func endLine() -> SSEMessage? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let (field, value) = split(text)
        switch field {
        case "data":
            data.append(value)
            hasData = true
        case "event": event = value
        case "id" where !value.contains("\0"): lastEventId = value
        case "retry": retry = Int(value).map { $0 } ?? retry
        default: break
        }
        return nil
    }

    private func split(_ text: String) -> (Substring, String) {
        guard let colon = text.firstIndex(of: ":") else { return (Substring(text), "") }
        var value = text[text.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (text[..<colon], String(value))
    }

    private mutating func dispatch() -> SSEMessage? {
        defer {
            data.removeAll()
            hasData = false
            event = nil
        }
        guard hasData else { return nil }
        return SSEMessage(id: lastEventId, event: event, data: data.joined(separator: "\n"), retry: retry)
    }
}
