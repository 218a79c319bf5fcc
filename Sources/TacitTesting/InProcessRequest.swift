import Foundation
import TacitHTTP

/// Turns a test's request into the `HTTPRequest` the HTTP layer would have built, and a
/// handler's `HTTPResponse` into a `TestResponse`, for in-process calls.
enum InProcessRequest {
    static func make(_ method: String, _ target: String, body: Data?, headers: [String: String],
                     remoteAddress: String) -> HTTPRequest {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? "/"
        var fields = headers
        fields["Host"] = fields["Host"] ?? "127.0.0.1"
        if let body { fields["Content-Length"] = String(body.count) }
        return HTTPRequest(method: method, path: rawPath.removingPercentEncoding ?? rawPath,
                           query: parts.count > 1 ? query(String(parts[1])) : [:], headers: fields,
                           body: body.map { Array($0) } ?? [], remoteAddress: remoteAddress)
    }

    /// Decodes a query as libmicrohttpd does: `+` is a space, the last of a repeated name wins.
    static func query(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            values[item[0]] = item.count > 1 ? item[1] : ""
        }
        return values
    }

    /// Reads the body to its end: a complete body at once, a stream until it finishes.
    static func collect(_ response: HTTPResponse) async -> TestResponse {
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        var bytes: [UInt8] = []
        switch response.body {
        case .bytes(let body): bytes = body
        case .stream(let stream): for await chunk in stream { bytes += chunk }
        case .writer: break
        }
        if case .bytes = response.body { headers["content-length"] = String(bytes.count) }
        return TestResponse(status: response.status, headers: headers, body: Data(bytes))
    }
}
