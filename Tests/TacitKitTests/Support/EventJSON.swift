/// Builds the wire JSON of timeline events for fake servers.
enum EventJSON {
    static func event(_ seq: Int, _ label: String, requestId: String = "req-1") -> String {
        let channel = label.split(separator: ":").first.map(String.init) ?? ""
        return #"{"seq":\#(seq),"at":"2026-11-30T04:05:06.123Z","request_id":"\#(requestId)","source":"server","channel":"\#(channel)","label":"\#(label)","outcome":"info","note":"n","data":{"k":"v"}}"#
    }

    static func sse(_ seq: Int, _ label: String) -> String {
        "id: \(seq)\ndata: \(event(seq, label))\n\n"
    }

    /// A streamed SSE response head (no length: the body runs until close).
    static let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
}
