import Foundation

/// A response for the server to send: a status, ordered headers and a body.
///
/// The server adds `Content-Length` to byte bodies itself (any such header set here is
/// ignored) and sends stream bodies with chunked transfer encoding.
public struct HTTPResponse: Sendable {
    /// What the response carries.
    public enum Body: Sendable {
        /// A complete body.
        case bytes([UInt8])
        /// A body written chunk by chunk as the stream yields, e.g. Server-Sent Events.
        /// The response ends when the stream finishes. When the client goes away the
        /// stream's consumer is cancelled, so its `onTermination` runs; an idle stream
        /// holds no thread and is not polled, so a departed client is noticed on the next
        /// write: long-lived streams should send a heartbeat (an SSE comment) every ~15 s.
        case stream(AsyncStream<[UInt8]>)
        /// A body its producer writes to directly (`StreamWriter`), sent with chunked
        /// transfer encoding until the writer finishes. No task sits between producer and
        /// connection, which matters when one event fans out to many streams.
        case writer(StreamWriter)
    }

    /// The HTTP status code.
    public var status: Int
    /// Response headers in the order they are sent.
    public var headers: [(String, String)]
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, its name compared without regard to ASCII case, as HTTP
    /// compares names. Byte by byte: Foundation's `caseInsensitiveCompare` bridged both
    /// strings for every header, and a create's guard asks its response once.
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.0, name) }?.1
    }

    /// Whether two header names are the same, ASCII letters compared in either case.
    static func sameName(_ one: String, _ other: String) -> Bool {
        one.utf8.count == other.utf8.count && one.utf8.elementsEqual(other.utf8) { folded($0) == folded($1) }
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte | 0x20 : byte
    }

    /// A JSON response from bytes that are already encoded.
    public static func json(status: Int = 200, bytes: [UInt8], headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(bytes))
    }

    /// A JSON response encoding `value` with snake_case keys and ISO 8601 dates.
    /// Encoding failures answer 500, since they are programming errors.
    public static func json<T: Encodable>(status: Int = 200, _ value: T,
                                          headers: [(String, String)] = []) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return .problem(status: 500, type: "internal-error", title: "Internal error",
                            detail: "The response could not be encoded.")
        }
        return .json(status: status, bytes: Array(data), headers: headers)
    }

    /// A plain-text response (UTF-8).
    public static func text(_ text: String, status: Int = 200,
                            contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)))
    }

    /// A response with no body, e.g. 204.
    public static func empty(status: Int = 204, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    /// A redirect to `location`.
    public static func redirect(location: String, status: Int = 302) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Location", location)])
    }

    /// A Server-Sent Events response over `stream`, with the headers SSE clients expect.
    public static func eventStream(_ stream: AsyncStream<[UInt8]>, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 200, headers: eventStreamHeaders + headers, body: .stream(stream))
    }

    /// A Server-Sent Events response written through `writer`.
    public static func eventStream(_ writer: StreamWriter, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 200, headers: eventStreamHeaders + headers, body: .writer(writer))
    }

    private static let eventStreamHeaders = [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
    ]
}
