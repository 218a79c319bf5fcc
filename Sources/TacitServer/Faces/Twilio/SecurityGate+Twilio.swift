import Foundation
import TacitCrypto
import TacitHTTP
import TacitStore

extension SecurityGate {
    /// Admits a Twilio-face request: Basic `account_sid:auth_token` of a live application
    /// whose Verify service is the path's `:service`, that application's request budget,
    /// and, for a route about one verification (`:sid`), that application owning it. The
    /// application then acts for the route. Every refusal, and every problem a guard inside
    /// the route raises, answers in Twilio's error shape.
    func admitTwilio(_ request: HTTPRequest, then route: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            let application = try await twilioApplication(request)
            return try await runFace(for: application, verificationID: request.pathParameters["sid"],
                                     isFaceID: TwilioFace.isVerificationSid, notFound: TwilioError.notFound(request.path), route)
        } catch let error as TwilioError {
            return error.response
        } catch let problem as APIProblem {
            return TwilioError(problem, path: request.path).response
        } catch {
            return TwilioError.unavailable.response
        }
    }

    /// The application the credential and the path's service belong to. A good credential
    /// with another service's sid is refused as Twilio refuses a service it doesn't know
    /// (404); anything else wrong with the credential is one 401.
    private func twilioApplication(_ request: HTTPRequest) async throws -> String {
        guard let credential = TwilioBasicAuth(request), let applications = store as? any ApplicationStore else {
            throw TwilioError.authentication
        }
        let directory = ApplicationDirectory(store: applications)
        // A request no route took (a method the path has no route for) carries no captures.
        let segments = request.pathSegments
        let service = request.pathParameters["service"] ?? (segments.count > 2 && segments[1] == "Services" ? String(segments[2]) : "")
        if let application = try await directory.twilio(accountSid: credential.accountSid, authToken: credential.authToken,
                                                        serviceSid: service) {
            return application.id
        }
        guard try await directory.twilio(accountSid: credential.accountSid, authToken: credential.authToken) != nil else {
            throw TwilioError.authentication
        }
        throw TwilioError.notFound(request.path)
    }
}
