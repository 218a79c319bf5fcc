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
            do {
                try await limiter.spend("app", application.id, configuration.requestsPerApplication, at: clock.now(),
                                        detail: "This application made too many requests; retry later.")
            } catch {
                metrics.refused("key_limit", at: "request")
                throw error
            }
            // Scoped like every keyed route (see `StoreScope`): the ownership read and every
            // read the route makes see only this application's verifications.
            return try await StoreScope.$application.withValue(application.id) {
                if let id = request.pathParameters["id"] {
                    let visible = IDGenerator.isVonageRequestID(id) ? try await store.recentVerification(id: id) : nil
                    guard visible != nil else { throw VonageProblem.notFound }
                }
                return try await route()
            }
        }
    }
}
