import Foundation

/// An error from a Tacit server or from reaching it.
///
/// Server errors carry the problem+json fields; `type` is the stable slug
/// (`invalid-code`, `rate-limited`, ...). Local failures use `network-error`
/// and `invalid-response`. The description never includes `detail`, so no
/// server text (however redacted) ends up in app logs by accident.
public struct TacitError: Error, Sendable, Equatable, Codable {
    /// One rejected request field.
    public struct InvalidParameter: Codable, Sendable, Equatable {
        public var name: String
        public var reason: String
        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }

    public var type: String
    public var title: String?
    /// The HTTP status, or 0 when the server was never reached.
    public var status: Int
    public var detail: String?
    public var invalidParameters: [InvalidParameter]
    public var attemptsRemaining: Int?
    /// Seconds to wait before retrying, from the body or the `Retry-After` header.
    public var retryAfter: Int?

    public init(
        type: String, title: String? = nil, status: Int, detail: String? = nil,
        invalidParameters: [InvalidParameter] = [], attemptsRemaining: Int? = nil, retryAfter: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.invalidParameters = invalidParameters
        self.attemptsRemaining = attemptsRemaining
        self.retryAfter = retryAfter
    }

    enum CodingKeys: String, CodingKey {
        case type, title, status, detail, invalidParameters = "invalid_parameters"
        case attemptsRemaining = "attempts_remaining", retryAfter = "retry_after"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        status = try c.decodeIfPresent(Int.self, forKey: .status) ?? 0
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
        invalidParameters = try c.decodeIfPresent([InvalidParameter].self, forKey: .invalidParameters) ?? []
        attemptsRemaining = try c.decodeIfPresent(Int.self, forKey: .attemptsRemaining)
        retryAfter = try c.decodeIfPresent(Int.self, forKey: .retryAfter)
    }

    /// Builds the error for a non-2xx response: the problem body when there is
    /// one, else a generic `http-<status>` slug.
    static func from(status: Int, body: Data, retryAfterHeader: String?) -> TacitError {
        var error = (try? JSONDecoder().decode(TacitError.self, from: body))
            ?? TacitError(type: "http-\(status)", status: status)
        if error.status == 0 { error.status = status }
        if error.retryAfter == nil, let header = retryAfterHeader {
            error.retryAfter = Int(header.trimmingCharacters(in: .whitespaces))
        }
        return error
    }

    static func network(_ message: String) -> TacitError {
        TacitError(type: "network-error", title: message, status: 0)
    }

    static func invalidResponse(_ message: String, status: Int = 0) -> TacitError {
        TacitError(type: "invalid-response", title: message, status: status)
    }

    /// True for errors worth retrying later: no answer, a 5xx, or rate limiting.
    public var isTransient: Bool {
        status == 0 || status >= 500 || status == 429
    }
}

extension TacitError: CustomStringConvertible {
    public var description: String {
        "TacitError(\(type), status \(status)\(title.map { ": \($0)" } ?? ""))"
    }
}
