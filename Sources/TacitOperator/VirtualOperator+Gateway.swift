import Foundation
import TacitHTTP

extension VirtualOperator {
    /// The cellular gateway: `GET /operator/gateway/{session}?redirect_uri=…&state=…`.
    /// It sees the device's source address, claims the single-use session, and sends
    /// the device back with a signed verdict to the callback registered when the
    /// session opened, and nowhere else. A `…97` number gets no verdict at all: the
    /// carrier never answers, so the caller's own timer decides.
    func gateway(_ request: HTTPRequest) async -> HTTPResponse {
        await hop()
        guard let session = request.pathParameters["session"], !session.isEmpty,
              let registered = sessions.peek(session) else { return Self.unknownSession }
        // Checked before the session is claimed: a rewritten link spends nothing, so the
        // device that was sent the real one can still use it.
        guard let redirect = Self.redirect(request.query["redirect_uri"], registered: registered.redirectURI) else {
            return Self.invalidRedirect
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

    /// Where the verdict may go: the registered callback, when the link names exactly it
    /// or names none (RFC 6749 §3.1.2.3 compares redirect URIs as strings, and so does this).
    /// nil for any other target, and for a session opened with no callback at all.
    static func redirect(_ given: String?, registered: String?) -> String? {
        guard let registered, QueryString.isAbsoluteHTTP(registered) else { return nil }
        guard let given else { return registered }
        return given == registered ? registered : nil
    }

    static let unknownSession = HTTPResponse.problem(
        status: 404, type: "unknown-check", title: "Unknown check",
        detail: "The operator has no check with this id; it may belong to another network.")

    /// Not a redirect: an answer sent to an unregistered target is the attack itself.
    static let invalidRedirect = HTTPResponse.problem(
        status: 400, type: "invalid-redirect-uri", title: "Invalid redirect_uri",
        detail: "The gateway sends its answer only to the callback registered for this check; this link names another.")
}
