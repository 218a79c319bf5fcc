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
        guard let redirect = request.query["redirect_uri"], let target = URLComponents(string: redirect),
              ["http", "https"].contains(target.scheme ?? ""), target.host != nil else {
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
        var components = target
        components.queryItems = (target.queryItems ?? []) + answer.queryItems(key: configuration.signingKey)
        return .redirect(location: Self.encodedURL(components))
    }

    /// `URLComponents` leaves `+` as it is in queries, where receivers read it as a
    /// space: the base64url signature and state have none, but encode it to be safe.
    static func encodedURL(_ components: URLComponents) -> String {
        var components = components
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? ""
    }

    static let unknownSession = HTTPResponse.problem(
        status: 404, type: "unknown-check", title: "Unknown check",
        detail: "The operator has no check with this id; it may belong to another network.")
}
