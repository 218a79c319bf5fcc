import Foundation
import TacitCore
import TacitHTTP
import TacitServer

extension VonageFaceRoutes {
    /// `POST /v2/verify/{id}` with `{"code"}`: 200 `completed`, 400 for a wrong code, 410
    /// once Vonage's limit of wrong codes has ended the workflow (three, or one for a silent-auth code:
    /// `Verification.attemptLimit(on:)`). The runner's `CheckResult` goes beside the answer to the
    /// failed-check guard.
    func check(_ request: HTTPRequest) async -> CheckAnswer {
        do {
            try Self.requireJSON(request)
            let id = try Self.requestID(request)
            let code = try Self.code(in: request.body)
            let result = try await runner.check(id, code: code) { verification in
                try Self.requireOwn(verification)
                // A silent step whose check_url was never opened has no code to compare.
                if verification.activeChannel == .silentAuth, verification.codeHash == nil {
                    throw VonageProblem.noCode
                }
                return [EventDraft("api:check", channel: verification.activeChannel,
                                   note: "A code was submitted for checking (POST /v2/verify/{id}).",
                                   data: ["code": .code(code)])]
            }
            guard let result else { throw VonageProblem.notFound }
            return CheckAnswer(response: Self.response(to: result, id: id), result: result)
        } catch {
            return CheckAnswer(response: await VonageProblem.answering { throw error }, result: nil)
        }
    }

    static func response(to result: CheckResult, id: String) -> HTTPResponse {
        switch result {
        case .completed: .json(bytes: JSONText.object(["request_id": .string(id), "status": .string("completed")]))
        case .wrongCode: VonageProblem.invalidCode.response
        case .tooManyAttempts, .notPending(.failed): VonageProblem.tooManyAttempts.response
        case .notPending: VonageProblem.notFound.response
        }
    }

    /// The body's `code`: 4 to 10 letters and digits, as Vonage takes it. `token` (Silent
    /// Auth Advanced) is not supported.
    static func code(in body: [UInt8]) throws(VonageProblem) -> String {
        guard case .object(let fields)? = try? JSONParser.parse(body) else {
            throw .malformed("The request body must be a JSON object.")
        }
        var reader = VonageFields(fields)
        let code = reader.string("code", required: fields["token"] == nil)
        if fields["token"] != nil {
            reader.problem("token", "Silent Auth Advanced tokens are not supported; send the code")
        }
        if let code,
           !(4...10).contains(code.count) || !code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            reader.problem("code", "must be 4 to 10 letters and digits")
        }
        guard reader.problems.isEmpty, let code else { throw .invalid(reader.problems) }
        return code
    }
}
