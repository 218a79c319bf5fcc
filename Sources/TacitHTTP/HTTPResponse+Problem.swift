/// RFC 7807 problem responses, built without JSONEncoder so the hot error paths (404, 413,
/// 503) cost no more than a string join.
extension HTTPResponse {
    /// An `application/problem+json` response `{"type","title","status","detail"}`.
    /// `extra` members are appended as already-encoded JSON values, e.g. `("retry_after", "1")`.
    public static func problem(
        status: Int,
        type: String,
        title: String,
        detail: String? = nil,
        extra: [(String, String)] = [],
        headers: [(String, String)] = []
    ) -> HTTPResponse {
        var members = ["\"type\":\(jsonString(type))", "\"title\":\(jsonString(title))", "\"status\":\(status)"]
        if let detail { members.append("\"detail\":\(jsonString(detail))") }
        members += extra.map { "\(jsonString($0.0)):\($0.1)" }
        let body = "{" + members.joined(separator: ",") + "}"
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/problem+json")] + headers,
            body: .bytes(Array(body.utf8))
        )
    }

    /// Encodes `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
