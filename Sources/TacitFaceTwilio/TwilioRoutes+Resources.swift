import Foundation
import TacitCore
import TacitHTTP
import TacitServer
import TacitStore

extension TwilioRoutes {
    /// Runs a handler and answers whatever it throws in Twilio's error shape: its own
    /// errors as they are, Tacit's problems translated, anything else a 503 without internals.
    static func answering(_ request: HTTPRequest, _ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do { return try await body() }
        catch let error as TwilioError { return error.response }
        catch let problem as APIProblem { return TwilioError(problem, path: request.path).response }
        catch { return TwilioError.unavailable.response }
    }

    /// The credential's sids and the acting application, which the gate has checked already.
    func account(_ request: HTTPRequest) async throws -> TwilioAccount {
        guard let application = ActingApplication.id, let credential = TwilioBasicAuth(request),
              let service = request.pathParameters["service"] else { throw TwilioError.authentication }
        return TwilioAccount(applicationId: application, accountSid: credential.accountSid, serviceSid: service,
                             baseURL: silentKeys.baseURL)
    }

    /// `GET …/Verifications/{Sid}`: the resource in whatever status it reached (the gate
    /// already answered 404 for a sid the application doesn't own).
    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        await Self.answering(request) {
            let account = try await account(request)
            guard let sid = request.pathParameters["sid"],
                  let verification = try await store.verification(id: sid),
                  verification.face == TwilioFace.name else {
                throw TwilioError.notFound(request.path)
            }
            return .json(bytes: TwilioVerificationBody(verification: verification, account: account).bytes)
        }
    }

    /// `POST …/Verifications/{Sid}` with `Status=canceled` or `Status=approved`. A
    /// verification that already ended is gone, as Twilio deletes it: 404.
    func update(_ request: HTTPRequest) async throws -> HTTPResponse {
        await Self.answering(request) {
            let account = try await account(request)
            guard let form = TwilioForm(body: request.body) else { throw TwilioError.malformedForm }
            guard let sid = request.pathParameters["sid"] else { throw TwilioError.notFound(request.path) }
            let event: EventDraft
            let move: @Sendable (inout WorkflowRunner.Turn) throws -> Void
            switch form["Status"] {
            case "canceled":
                event = EventDraft("api:cancel",
                                   note: "The app cancelled the verification (Twilio Verify face, Status=canceled).")
                move = { try $0.handle(.cancel) }
            case "approved":
                event = EventDraft("api:approve",
                                   note: "The app approved the verification itself, without a code "
                                       + "(Twilio Verify face, Status=approved).")
                move = { try $0.handle(.approve) }
            default:
                throw TwilioError.invalidParameter("Status")
            }
            do {
                let path = request.path
                let own: @Sendable (inout WorkflowRunner.Turn) throws -> Void = { turn in
                    // Only a verification this face started is Twilio's to change.
                    guard turn.verification.face == TwilioFace.name else { throw TwilioError.notFound(path) }
                    try move(&turn)
                }
                guard let outcome = try await runner.transition(sid, events: [event], own) else {
                    throw TwilioError.notFound(request.path)
                }
                return .json(bytes: TwilioVerificationBody(verification: outcome.verification, account: account).bytes)
            } catch is WorkflowRefusal {
                throw TwilioError.notFound(request.path)
            }
        }
    }
}
