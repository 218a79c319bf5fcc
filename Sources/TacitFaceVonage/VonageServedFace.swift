import Foundation
import TacitCore
import TacitHTTP
import TacitServer
import TacitStore

/// The Vonage face as one running application serves it: its routes, its own
/// authentication (`VonageAuthenticator`, whose replay and key caches live as long as the
/// application), its error shape and its callbacks' targets.
struct VonageServedFace: ServedFace {
    let context: FaceContext
    let authenticator: VonageAuthenticator?
    let callbackTargets: VonageCallbackTargets?

    init(context: FaceContext) {
        self.context = context
        // Without applications there is no credential to check: every face call is refused.
        authenticator = context.applications.map { VonageAuthenticator(directory: $0, clock: context.clock) }
        callbackTargets = context.applications.map { VonageCallbackTargets(directory: $0, fields: context.fields) }
    }

    func register(_ routes: inout RouteTable) {
        let redirect = VonageSilentRedirect(flow: context.silent, keys: context.silentKeys)
        VonageFaceRoutes(context: context, ids: .vonageRequestID(), silent: redirect, document: VonageFace.document)
            .register(&routes)
    }

    func authenticate(_ request: HTTPRequest) async throws -> String {
        guard let authenticator else { throw VonageProblem.notFound }
        return try await authenticator.authenticate(request).id
    }

    func verificationID(in request: HTTPRequest) -> String? { request.pathParameters["id"] }

    func isVerificationID(_ id: String) -> Bool { IDGenerator.isVonageRequestID(id) }

    func notFound(_ request: HTTPRequest) -> any Error { VonageProblem.notFound }

    func response(for error: any Error, to request: HTTPRequest) -> HTTPResponse {
        switch error {
        case let problem as VonageProblem: problem.response
        case let problem as APIProblem: VonageProblem(problem).response
        default: VonageProblem.internalError.response
        }
    }

    func callbackTarget(for message: OutboxMessage) async -> FaceCallbackTarget? {
        guard let application = FaceCallbacks.application(in: message.endpoint, face: VonageFace.name),
              let target = await callbackTargets?.target(for: application) else { return nil }
        return FaceCallbackTarget(url: target.url,
                                  headers: VonageCallbackTargets.headers(message, secret: target.secret,
                                                                         now: context.clock.now()))
    }
}
