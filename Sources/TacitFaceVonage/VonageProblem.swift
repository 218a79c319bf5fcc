import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitServer

/// An error of the Vonage Verify v2 face, in Vonage's problem+json shape (RFC 7807:
/// `title`, `type`, `detail`, `instance`; `invalid_parameters` on a 422 and the in-flight
/// `request_id` on a concurrent start's 409), so an app's existing error handling reads
/// it as it reads Vonage's. Like `APIProblem`, `detail` never holds a number or a code.
struct VonageProblem: Error, Sendable, Equatable {
    var status: Int
    var slug: String
    var title: String
    var detail: String
    var invalidParameters: [InvalidParameter] = []
    var requestId: String?

    static let typeBase = "https://developer.vonage.com/en/api-errors/verify-v2#"

    var response: HTTPResponse {
        var members: [String: JSONValue] = [
            "title": .string(title), "type": .string(Self.typeBase + slug), "detail": .string(detail),
            "instance": .string(instance),
        ]
        if !invalidParameters.isEmpty {
            members["invalid_parameters"] = .array(invalidParameters.map {
                .object(["name": .string($0.name), "reason": .string($0.reason)])
            })
        }
        if let requestId { members["request_id"] = .string(requestId) }
        var headers: [(String, String)] = [("Content-Type", "application/problem+json")]
        if status == 401 {
            headers.append(("WWW-Authenticate", #"Bearer realm="Vonage Verify", Basic realm="Vonage Verify""#))
        }
        return HTTPResponse(status: status, headers: headers, body: .bytes(JSONText.object(members)))
    }

    /// Where Vonage puts a trace id. Here it names the kind of refusal, the same every
    /// time: a per-answer value would make another application's id and an unknown one
    /// answer in different bytes, and tell them apart.
    var instance: String {
        let hex = Hex.encode(Array(SHA256.hash("\(status):\(slug)").prefix(16)))
        let cuts = [8, 12, 16, 20]
        return hex.enumerated().reduce(into: "") { text, item in
            if cuts.contains(item.offset) { text.append("-") }
            text.append(item.element)
        }
    }

    static let unauthorized = VonageProblem(status: 401, slug: "unauthorized", title: "Unauthorized",
                                            detail: "You did not provide correct credentials.")
    static let notFound = VonageProblem(status: 404, slug: "request-not-found", title: "Not Found",
                                        detail: "Request not found.")
    static let invalidCode = VonageProblem(status: 400, slug: "invalid-code", title: "Invalid Code",
                                           detail: "The code you provided does not match the expected value.")
    static let tooManyAttempts = VonageProblem(
        status: 410, slug: "expired", title: "Invalid Code",
        detail: "An incorrect code has been provided too many times. Workflow terminated.")
    static let noMoreWorkflows = VonageProblem(status: 409, slug: "conflict", title: "Conflict",
                                               detail: "There are no more events left to trigger.")
    static let noCode = VonageProblem(status: 409, slug: "no-code", title: "Conflict",
                                      detail: "The current Verify workflow step does not support a code.")
    static let cancelOutsideWindow = VonageProblem(
        status: 409, slug: "conflict", title: "Conflict",
        detail: "Cancellation is only possible 30 seconds after the start of the verification request "
            + "and before the second event has taken place.")
    static let internalError = VonageProblem(status: 500, slug: "internal-error", title: "Internal Error",
                                             detail: "There was an error processing your request in the Platform.")
    static let unsupportedMediaType = VonageProblem(status: 415, slug: "unsupported-media-type",
                                                    title: "Unsupported Media Type",
                                                    detail: "Send the body as application/json.")

    static func concurrent(requestId: String?) -> VonageProblem {
        VonageProblem(status: 409, slug: "concurrent", title: "Conflict",
                      detail: "Concurrent verifications to the same number are not allowed.", requestId: requestId)
    }

    static func invalid(_ parameters: [InvalidParameter]) -> VonageProblem {
        VonageProblem(status: 422, slug: "invalid-params", title: "Invalid params",
                      detail: "The value of one or more parameters is invalid.", invalidParameters: parameters)
    }

    static func malformed(_ detail: String) -> VonageProblem {
        VonageProblem(status: 400, slug: "bad-request", title: "Bad Request", detail: detail)
    }

    /// Runs `body`, answering any error in this face's shape: never Tacit's own problem
    /// body, never a 5xx that shows internals.
    static func answering(_ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do { return try await body() }
        catch let problem as VonageProblem { return problem.response }
        catch let problem as APIProblem { return VonageProblem(problem).response }
        catch { return VonageProblem.internalError.response }
    }
}

extension VonageProblem {
    /// What the rest of Tacit's refusals say on this face: the limits' 429s, a denied
    /// destination, a body that is not JSON. Anything unknown is the server's fault.
    init(_ problem: APIProblem) {
        switch problem.status {
        case 429:
            self.init(status: 429, slug: "throttled", title: "Rate Limit Hit",
                      detail: "Please wait, then retry your request.")
        case 401: self = .unauthorized
        case 404: self = .notFound
        case 415: self = .unsupportedMediaType
        case 400: self = .malformed(problem.detail)
        case 422: self = .invalid(problem.invalidParameters.isEmpty
                                  ? [InvalidParameter(name: "to", reason: problem.detail)] : problem.invalidParameters)
        case 403: self.init(status: 422, slug: "invalid-params", title: "Invalid params", detail: problem.detail)
        default: self = .internalError
        }
    }
}
