import Foundation
import TacitCore
import TacitHTTP
import TacitServer

/// The Vonage face's `check_url`: Vonage's own path, `/v2/verify/{request_id}/silent-auth/redirect`,
/// with the sealed single-use check token Tacit issued for the silent step in its query.
/// Opening it is the first hop of the one check_url mechanism (`SilentFlow.open`): the
/// same token, latch, device cookie and deadline, then the operator's gateway and Tacit's
/// callback, which ends in `{"request_id", "code"}` with this request id and a code in
/// Vonage's form (`SilentEnding`) for `POST /v2/verify/{id}`.
struct VonageSilentRedirect: Sendable {
    let flow: SilentFlow
    let keys: SilentKeys
    static let pattern = "/v2/verify/:id/silent-auth/redirect"

    /// The Vonage form of `checkURL`, the silent step's check URL for the verification `id`.
    func vonageURL(for checkURL: String, id: String) -> String? {
        let prefix = keys.baseURL + SilentKeys.checkURLPath
        guard checkURL.hasPrefix(prefix) else { return nil }
        return keys.baseURL + "/v2/verify/\(id)/silent-auth/redirect?t=" + checkURL.dropFirst(prefix.count)
    }

    /// Opens the check the query's token names, when it belongs to the path's request id.
    func open(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = request.query["t"], let id = request.pathParameters["id"],
              keys.verificationId(ofCheckURL: keys.baseURL + SilentKeys.checkURLPath + token) == id else {
            return VonageProblem.notFound.response
        }
        var hop = request
        hop.pathParameters["token"] = token
        do {
            return try await flow.open(hop)
        } catch let problem as APIProblem {
            return Self.problem(for: problem).response
        } catch {
            return VonageProblem.internalError.response
        }
    }

    /// The check_url's refusals as Vonage lists them: 404 unknown, 409 used, 412 when the
    /// silent check can no longer complete.
    static func problem(for problem: APIProblem) -> VonageProblem {
        switch problem.status {
        case 404: .notFound
        case 410 where problem.type == APIProblem.checkURLUsed.type:
            VonageProblem(status: 409, slug: "conflict", title: "Conflict", detail: "This check URL was already used.")
        default:
            VonageProblem(status: 412, slug: "precondition-failed", title: "Silent authentication failed",
                          detail: "The silent auth verification cannot be completed.")
        }
    }
}
