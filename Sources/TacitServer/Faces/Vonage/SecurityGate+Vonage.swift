import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore

extension SecurityGate {
    /// Runs a Vonage face route for the application its credential names: that
    /// application's request limit, then, for a route about one request id, ownership,
    /// where another application's id and an unknown one get the same 404 from the same
    /// read; then the route, acting for the application. Every refusal, the guards' inside
    /// `route` included, answers in Vonage's problem+json shape.
    func admitVonage(_ request: HTTPRequest, then route: () async throws -> HTTPResponse) async -> HTTPResponse {
        await VonageProblem.answering {
            guard let vonage else { throw VonageProblem.notFound }
            let application = try await vonage.authenticate(request)
            return try await runFace(for: application.id, verificationID: request.pathParameters["id"],
                                     isFaceID: IDGenerator.isVonageRequestID, notFound: VonageProblem.notFound, route)
        }
    }
}
