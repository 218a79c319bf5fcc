import Foundation
import TacitHTTP
import TacitStore

extension SecurityGate {
    /// This gate, checking the credentials of `faces` too.
    func serving(_ faces: ServedFaces) -> SecurityGate {
        var gate = self
        gate.faces = faces
        return gate
    }

    /// Admits a request to a face's route: the face's own credential names the application,
    /// which then acts for the route (see `runFace`). Every refusal, and every problem a
    /// guard inside the route raises, answers in the face's own error shape.
    func admitFace(_ name: String, _ request: HTTPRequest,
                   then route: () async throws -> HTTPResponse) async -> HTTPResponse {
        guard let face = faces[name] else { return APIProblem.noSuchRoute.response }
        do {
            let application = try await face.authenticate(request)
            return try await runFace(for: application, verificationID: face.verificationID(in: request),
                                     isFaceID: face.isVerificationID, notFound: face.notFound(request), route)
        } catch {
            return face.response(for: error, to: request)
        }
    }

    /// What every compatible face's gate does once its own credential named `application`:
    /// the application's request bucket, then `route` inside the application's store scope
    /// (see `StoreScope`), after the verification the path names, if any, is found visible
    /// there. Another application's id and an unknown one get the face's `notFound` from
    /// the same read.
    func runFace(for application: String, verificationID id: String?, isFaceID: (String) -> Bool,
                 notFound: @autoclosure () -> any Error,
                 _ route: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        try await spendApplicationLimit(application)
        return try await StoreScope.$application.withValue(application) {
            if let id {
                let visible = isFaceID(id) ? try await store.recentVerification(id: id) : nil
                guard visible != nil else { throw notFound() }
            }
            return try await route()
        }
    }

    /// The application's own request bucket, which its keys and its face credentials all spend.
    func spendApplicationLimit(_ application: String) async throws {
        do {
            try await limiter.spend("app", application, configuration.requestsPerApplication, at: clock.now(),
                                    detail: "This application made too many requests; retry later.")
        } catch {
            metrics.refused("key_limit", at: "request")
            throw error
        }
    }
}
