import Foundation
import TacitCore
import TacitHTTP

/// A public API error with a stable `type` slug (docs/api.md#errors), mapped to problem+json only
/// here at the edge. `detail` never carries a phone number, code or token.
public struct APIProblem: Error, Sendable, Equatable {
    public var status: Int
    public var type: String
    public var title: String
    public var detail: String
    public var invalidParameters: [InvalidParameter] = []
    public var attemptsRemaining: Int?
    public var retryAfter: Int?

    public init(status: Int, type: String, title: String, detail: String) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
    }

    public var response: HTTPResponse {
        var extra: [(String, String)] = []
        if !invalidParameters.isEmpty {
            let items = invalidParameters.map {
                "{\"name\":\(JSONText.string($0.name)),\"reason\":\(JSONText.string($0.reason))}"
            }
            extra.append(("invalid_parameters", "[" + items.joined(separator: ",") + "]"))
        }
        if let attemptsRemaining { extra.append(("attempts_remaining", String(attemptsRemaining))) }
        var headers: [(String, String)] = []
        if let retryAfter {
            extra.append(("retry_after", String(retryAfter)))
            headers.append(("Retry-After", String(retryAfter)))
        }
        return .problem(status: status, type: type, title: title, detail: detail, extra: extra, headers: headers)
    }
}

extension APIProblem {
    static func malformedJSON(_ detail: String = "The request body is not valid JSON.") -> APIProblem {
        APIProblem(status: 400, type: "malformed-json", title: "Malformed JSON", detail: detail)
    }
    static func invalid(_ parameters: [InvalidParameter]) -> APIProblem {
        var problem = APIProblem(status: 422, type: "invalid-parameters", title: "Invalid parameters",
                                 detail: "One or more fields are invalid: "
                                     + parameters.map(\.name).joined(separator: ", ") + ".")
        problem.invalidParameters = parameters
        return problem
    }
    static func invalidPhoneNumber(_ reason: String) -> APIProblem {
        var problem = APIProblem(status: 422, type: "invalid-phone-number", title: "Invalid phone number",
                                 detail: reason)
        problem.invalidParameters = [InvalidParameter(name: "phone_number", reason: reason)]
        return problem
    }
    static let notFound = APIProblem(status: 404, type: "not-found", title: "Not found",
                                     detail: "No verification has this id.")
    static let concurrent = APIProblem(status: 409, type: "concurrent-verification", title: "Concurrent verification",
                                       detail: "A verification is already pending for this number; check it,"
                                               + " cancel it or wait for it to end.")
    static func invalidCode(remaining: Int) -> APIProblem {
        var problem = APIProblem(status: 400, type: "invalid-code", title: "Invalid code",
                                 detail: "The code does not match.")
        problem.attemptsRemaining = remaining
        return problem
    }
    static let tooManyAttempts = APIProblem(status: 410, type: "too-many-attempts", title: "Too many attempts",
                                            detail: "Too many wrong codes were entered; the verification has failed.")
    static func notPending(_ status: VerificationStatus) -> APIProblem {
        switch status {
        case .expired:
            return APIProblem(status: 410, type: "expired", title: "Expired", detail: "The verification has expired.")
        case .failed:
            return APIProblem(status: 410, type: "too-many-attempts", title: "Verification failed",
                              detail: "The verification has already failed.")
        default:
            return APIProblem(status: 409, type: "not-pending", title: "Not pending",
                              detail: "The verification is \(status.rawValue) and can't change any more.")
        }
    }
    static let noNextChannel = APIProblem(status: 409, type: "no-next-channel", title: "No next channel",
                                          detail: "The active step is the last one of the workflow.")
    static let idempotencyReused = APIProblem(status: 422, type: "idempotency-key-reused",
                                              title: "Idempotency key reused",
                                              detail: "This Idempotency-Key was used with a different request body.")
    static let unsupportedMediaType = APIProblem(status: 415, type: "unsupported-media-type",
                                                 title: "Unsupported media type",
                                                 detail: "Send the body as application/json.")
    public static let unavailable = APIProblem(status: 503, type: "unavailable", title: "Unavailable",
                                               detail: "The server can't serve this right now; try again.")
}
