import Foundation
import TacitHTTP
import TacitServer

/// An error as Twilio's REST API answers it: `{code, message, more_info, status}`, with
/// Twilio's own numeric codes, so an SDK raises the exception it raises against Twilio.
/// A message never carries a phone number, a code or a token.
struct TwilioError: Error, Sendable, Equatable {
    var status: Int
    var code: Int
    var message: String
    var headers: [(String, String)] = []

    init(status: Int, code: Int, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    var response: HTTPResponse {
        let body = JSONText.object([
            "code": .number(Double(code)), "message": .string(message),
            "more_info": .string("https://www.twilio.com/docs/errors/\(code)"), "status": .number(Double(status)),
        ])
        return .json(status: status, bytes: body, headers: headers)
    }

    static func == (lhs: TwilioError, rhs: TwilioError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message
    }
}

extension TwilioError {
    /// 20003, with the Basic challenge Twilio sends.
    static var authentication: TwilioError {
        var error = TwilioError(status: 401, code: 20003, message: "Authenticate")
        error.headers = [("WWW-Authenticate", #"Basic realm="Twilio API""#)]
        return error
    }

    /// 20404 naming the resource as the request named it (without `/v2`, as Twilio does):
    /// an unknown sid and another application's sid give the same words.
    static func notFound(_ path: String) -> TwilioError {
        let resource = path.hasPrefix("/v2/") ? String(path.dropFirst(3)) : path
        return TwilioError(status: 404, code: 20404, message: "The requested resource \(resource) was not found")
    }

    /// 60200, naming the parameter only.
    static func invalidParameter(_ name: String) -> TwilioError {
        TwilioError(status: 400, code: 60200, message: "Invalid parameter: \(name)")
    }

    /// The form itself could not be read.
    static let malformedForm = TwilioError(
        status: 400, code: 60200, message: "Invalid parameter: the body must be application/x-www-form-urlencoded")
    static let maxCheckAttempts = TwilioError(status: 429, code: 60202, message: "Max check attempts reached")
    static let maxSendAttempts = TwilioError(status: 429, code: 60203, message: "Max send attempts reached")
    /// A pending verification `/v1` or another face started holds the number: this face
    /// can't show it, and one number has one pending verification per application.
    static let concurrentVerification = TwilioError(status: 429, code: 60212,
                                                    message: "Too many concurrent requests for phone number")
    static let tooManyRequests = TwilioError(status: 429, code: 20429, message: "Too many requests")
    static let invalidPhoneNumber = TwilioError(status: 400, code: 60200, message: "Invalid parameter `To`")
    static let landlineNotSupported = TwilioError(status: 400, code: 60205,
                                                  message: "SMS is not supported by landline phone number")
    static let destinationDenied = TwilioError(status: 403, code: 60605,
                                               message: "Verification delivery attempt blocked")
    /// Fraud protection refused the number (docs/fraud.md), as Fraud Guard answers.
    static let fraudBlocked = TwilioError(status: 403, code: 60410, message: "Verification delivery attempt blocked")
    static let snaPending = TwilioError(status: 400, code: 60519, message: "SNA Verification Result Pending")
    static let methodNotAllowed = TwilioError(status: 405, code: 20004, message: "Method not allowed")
    static let unavailable = TwilioError(status: 503, code: 20503, message: "Service unavailable")

    /// The router's answer to a method no face route at the path takes (405 with `Allow`),
    /// in Twilio's shape, for a caller whose credential the gate has checked.
    static func unrouted(_ answer: HTTPResponse) -> HTTPResponse {
        var error = answer.status == 405
            ? methodNotAllowed
            : TwilioError(status: answer.status, code: 20404, message: "Not found")
        error.headers = answer.headers.filter { $0.0.lowercased() == "allow" }
        return error.response
    }

    /// What Tacit's shared guards refuse with (rate limits, destination lists, the
    /// ownership check), in Twilio's words; `path` names the resource a 404 is about.
    init(_ problem: APIProblem, path: String) {
        switch problem.status {
        case 401: self = .authentication
        case 404: self = .notFound(path)
        case 429:
            self = .tooManyRequests
            if let retry = problem.retryAfter { headers = [("Retry-After", String(retry))] }
        case 403 where problem.type == "destination-denied": self = .destinationDenied
        case 403 where problem.type == "fraud-blocked": self = .fraudBlocked
        // The one 422 about a number this face doesn't find itself: a fixed line with no voice step.
        case 422 where problem.type == "invalid-phone-number": self = .landlineNotSupported
        case 400..<500: self = TwilioError(status: 400, code: 60200, message: "Invalid parameter")
        default: self = .unavailable
        }
    }
}
