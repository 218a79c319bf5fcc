/// The problem responses the server itself answers, before any handler runs.
enum Problems {
    static func payloadTooLarge(limit: Int) -> HTTPResponse {
        .problem(status: 413, type: "payload-too-large", title: "Payload too large",
                 detail: "The request body exceeds the limit of \(limit) bytes.",
                 headers: [("Connection", "close")])
    }

    static let overloaded = HTTPResponse.problem(
        status: 503, type: "overloaded", title: "Service overloaded",
        detail: "Too many requests are in progress; retry shortly.",
        extra: [("retry_after", "1")], headers: [("Retry-After", "1")])

    static let shuttingDown = HTTPResponse.problem(
        status: 503, type: "shutting-down", title: "Service shutting down",
        detail: "The server is stopping and takes no new requests.",
        extra: [("retry_after", "1")], headers: [("Retry-After", "1"), ("Connection", "close")])
}

extension Problems {
    /// A request whose framing can't be trusted; the connection closes after it, so
    /// nothing that followed is read as a request of its own.
    static func malformed(_ detail: String) -> HTTPResponse {
        .problem(status: 400, type: "malformed-request", title: "Malformed request",
                 detail: detail, headers: [("Connection", "close")])
    }

    static let transferCodingNotImplemented = HTTPResponse.problem(
        status: 501, type: "transfer-coding-not-implemented", title: "Transfer coding not implemented",
        detail: "This server reads request bodies sent as they are or in the chunked transfer coding only.",
        headers: [("Connection", "close")])
}
