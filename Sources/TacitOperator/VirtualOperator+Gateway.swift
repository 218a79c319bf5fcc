import Foundation
import TacitHTTP

extension VirtualOperator {
    /// The cellular gateway: `GET /operator/gateway/{session}?redirect_uri=…&state=…`.
    /// It sees the device's source address, claims the single-use session, and sends
    /// the device back to `redirect_uri` with a signed verdict. A `…97` number gets no
    /// verdict at all: the carrier never answers, so the caller's own timer decides.
    func gateway(_ request: HTTPRequest) async -> HTTPResponse {
        await hop()
        guard let session = request.pathParameters["session"], !session.isEmpty else { return Self.unknownSession }
        guard let redirect = request.query["redirect_uri"], QueryString.isAbsoluteHTTP(redirect) else {
            return .problem(status: 400, type: "invalid-redirect-uri", title: "Invalid redirect_uri",
                            detail: "The gateway needs an absolute http(s) redirect_uri to send its answer to.")
        }
        let now = clock.now()
        let result: OperatorAnswer.Result
        switch sessions.claim(session, now: now) {
        case .unknown: return Self.unknownSession
        case .replayed: result = .replayed
        case .expired: result = .expired
        case .fresh(let number):
            guard configuration.cellularRange.contains(request.remoteAddress) else {
                result = .notCellular
                break
            }
            switch OperatorScript.forNumber(number) {
            case .neverAnswers?:
                return .problem(status: 504, type: "carrier-timeout", title: "Carrier did not answer",
                                detail: "The mobile network did not answer the authorisation request.")
            case .rejected?: result = .noMatch
            default: result = .match
            }
        }
        let answer = OperatorAnswer(result: result, session: session, state: request.query["state"] ?? "",
                                    expires: now.addingTimeInterval(configuration.answerLifetime))
        return .redirect(location: QueryString.appending(answer.queryItems(key: configuration.signingKey), to: redirect))
    }

    static let unknownSession = HTTPResponse.problem(
        status: 404, type: "unknown-check", title: "Unknown check",
        detail: "The operator has no check with this id; it may belong to another network.")
}
