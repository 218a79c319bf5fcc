import TacitCore
import TacitHTTP

/// What a code-check route answers, with the `CheckResult` the runner returned when the
/// check reached the verification's code. The failed-check guard and the conversion
/// monitor act on the result, never on the response's status or body.
public struct CheckAnswer: Sendable {
    public var response: HTTPResponse
    /// nil when the check was refused before the code was compared (a malformed code, an
    /// unknown id): such a check is no attempt.
    public var result: CheckResult?

    public init(response: HTTPResponse, result: CheckResult?) {
        self.response = response
        self.result = result
    }
}
