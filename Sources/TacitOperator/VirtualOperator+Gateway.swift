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
        guard let session = request.pathParameters["session"], !session.isEmpty else { return Self.unknownSession }
        let given = request.query["redirect_uri"]
        let now = clock.now()
        let claim: GatewayClaim, key: [UInt8]
        do {
            // The key first: a store that can't answer for it spends no session.
            key = try await keys.signingKey()
            // Checked as the session is claimed: a rewritten link spends nothing, so the
            // device that was sent the real one can still use it.
            claim = try await sessions.claim(session, now: now) {
                Self.redirect(given, registered: $0.redirectURI) != nil
            }
        } catch {
            return Self.unavailable
        }
        let result: OperatorAnswer.Result
        let registered: GatewaySession
        switch claim {
        case .unknown: return Self.unknownSession
        case .refused: return Self.invalidRedirect
        case .replayed(let found):
            result = .replayed
            registered = found
        case .expired(let found):
            result = .expired
            registered = found
        case .fresh(let found):
            registered = found
            guard configuration.cellularRange.contains(request.remoteAddress) else {
                result = .notCellular
                break
            }
            switch OperatorScript.forNumber(found.number) {
            case .neverAnswers?:
                return .problem(status: 504, type: "carrier-timeout", title: "Carrier did not answer",
                                detail: "The mobile network did not answer the authorisation request.")
            case .rejected?: result = .noMatch
            default: result = .match
            }
        }
        guard let redirect = Self.redirect(given, registered: registered.redirectURI) else {
            return Self.invalidRedirect
        }
        let answer = OperatorAnswer(result: result, session: session, state: request.query["state"] ?? "",
                                    expires: now.addingTimeInterval(configuration.answerLifetime))
        return .redirect(location: QueryString.appending(answer.queryItems(key: key), to: redirect))
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

    static let unavailable = HTTPResponse.problem(
        status: 503, type: "operator-unavailable", title: "Operator unavailable",
        detail: "The operator could not reach its session store; try the check again.")

    /// Not a redirect: an answer sent to an unregistered target is the attack itself.
    static let invalidRedirect = HTTPResponse.problem(
        status: 400, type: "invalid-redirect-uri", title: "Invalid redirect_uri",
        detail: "The gateway sends its answer only to the callback registered for this check; this link names another.")
}
