import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitServer
import TacitStore

/// The Twilio face as one running application serves it: its routes, Basic
/// `account_sid:auth_token` of an application whose Verify service the path's `:service`
/// names, and Twilio's error shape for every refusal.
struct TwilioServedFace: ServedFace {
    let context: FaceContext

    func register(_ routes: inout RouteTable) {
        TwilioRoutes(context: context,
                     ids: TwilioFace.verificationSids(now: { [clock = context.clock] in clock.now() }))
            .register(&routes)
    }

    /// The application the credential and the path's service belong to. A good credential
    /// with another service's sid is refused as Twilio refuses a service it doesn't know
    /// (404); anything else wrong with the credential is one 401.
    func authenticate(_ request: HTTPRequest) async throws -> String {
        guard let credential = TwilioBasicAuth(request), let directory = context.applications else {
            throw TwilioError.authentication
        }
        guard let (application, records) = try await directory.application(
            face: TwilioFace.name, identifier: TwilioFace.Record.accountSid, value: credential.accountSid,
            secret: credential.authToken, secretName: TwilioFace.Record.authToken,
            purpose: TwilioFace.tokenPurpose) else {
            throw TwilioError.authentication
        }
        // A request no route took (a method the path has no route for) carries no captures.
        let segments = request.pathSegments
        let service = request.pathParameters["service"]
            ?? (segments.count > 2 && segments[1] == "Services" ? String(segments[2]) : "")
        guard let owned = records.named(TwilioFace.Record.serviceSid)?.text, ConstantTime.equals(service, owned) else {
            throw TwilioError.notFound(request.path)
        }
        return application.id
    }

    func verificationID(in request: HTTPRequest) -> String? { request.pathParameters["sid"] }

    func isVerificationID(_ id: String) -> Bool { TwilioFace.isVerificationSid(id) }

    func notFound(_ request: HTTPRequest) -> any Error { TwilioError.notFound(request.path) }

    func response(for error: any Error, to request: HTTPRequest) -> HTTPResponse {
        switch error {
        case let error as TwilioError: error.response
        case let problem as APIProblem: TwilioError(problem, path: request.path).response
        default: TwilioError.unavailable.response
        }
    }

    func unrouted(_ request: HTTPRequest, answer: HTTPResponse) -> HTTPResponse { TwilioError.unrouted(answer) }
}
