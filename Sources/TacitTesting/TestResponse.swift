import Foundation

/// A response as a test sees it, however it arrived: status, headers with lower-cased
/// names, the body, and JSON helpers.
public struct TestResponse: Sendable {
    public var status: Int
    /// Header values by lower-cased name; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object; nil when it is not one.
    public var jsonObject: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    /// The body as a JSON object; empty when it is not one.
    public var json: [String: Any] { jsonObject ?? [:] }

    /// The body as a JSON array; empty when it is not one.
    public var jsonArray: [Any] { (try? JSONSerialization.jsonObject(with: body)) as? [Any] ?? [] }

    /// A member of the JSON object.
    public subscript(key: String) -> Any? { json[key] }

    /// A string member of the JSON object.
    public func string(_ key: String) -> String? { json[key] as? String }

    /// A problem's `type` slug.
    public var type: String? { string("type") }

    /// The body decoded as `T`, with snake_case keys as the API writes them.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: body)
    }
}
