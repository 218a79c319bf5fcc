import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitPhone
import TacitServer
import TacitStore

/// The Vonage Verify v2 face (docs/compatible-apis.md#vonage-verify-v2), at api.nexmo.com's own paths:
/// a start, a code check, `next_workflow` and cancel, each through the same `WorkflowRunner`,
/// start guard and failed-check guard as `/v1`, so limits, the timeline, webhooks and the console see
/// what it starts. Verifications it starts carry a Vonage-shaped id (a UUID) as their own
/// id and `vonage` as their face.
struct VonageFaceRoutes: Sendable {
    let context: FaceContext
    let ids: IDGenerator
    let silent: VonageSilentRedirect
    let document: [UInt8]?

    var runner: WorkflowRunner { context.runner }
    var store: any VerificationStore { context.store }
    var secrets: ServerSecrets { context.secrets }
    var phones: PhoneNumberParser { context.phones }
    var allowVirtualRange: Bool { context.allowVirtualRange }

    func register(_ router: inout RouteTable) {
        router.add("POST", "/v2/verify", .face(VonageFace.name), reading: readStart) { request, _ in
            await VonageProblem.answering { try await create(request) }
        }
        router.add("POST", "/v2/verify/:id", .face(VonageFace.name), checking: { request, _ in await check(request) })
        router.add("POST", "/v2/verify/:id/next_workflow", .face(VonageFace.name)) { request in
            await VonageProblem.answering { try await next(request) }
        }
        router.add("DELETE", "/v2/verify/:id", .face(VonageFace.name)) { request in
            await VonageProblem.answering { try await cancel(request) }
        }
        // Open, as Vonage's is: the sealed single-use check token in its query is the proof.
        router.add("GET", VonageSilentRedirect.pattern, .open) { request in await silent.open(request) }
        let document = self.document
        router.add("GET", "/v2/verify/openapi.json", .open) { _ in
            document.map { .json(bytes: $0) } ?? VonageProblem.notFound.response
        }
    }

    /// What the start guard judges: the number the body's first phone step goes to, else an
    /// email-only workflow's address, read even when another field is refused.
    func readStart(_ request: HTTPRequest) -> StartSubmission {
        VonageStartRequest.submission(in: request.body, phones: phones, allowVirtualRange: allowVirtualRange)
    }

    func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.requireJSON(request)
        let start = try VonageStartRequest.parse(request.body, phones: phones, allowVirtualRange: allowVirtualRange)
            .get()
        let application = ActingApplication.id ?? Application.defaultID
        let id = ids.make()
        // Vonage requires a brand, so only the code length and the channel timeout can
        // come from the application's defaults.
        let defaults = try await ApplicationDefaults.of(application, in: runner.applicationStore)
        let options = defaults.map {
            $0.fill(start.options, given: ApplicationDefaults.fieldNames(in: request.body) ?? [])
        } ?? start.options
        var draft = Verification(id: id, phoneNumber: start.number?.e164 ?? "", options: options,
                                 clientTokenHash: try secrets.tokenHash(ClientToken.make(for: id)),
                                 createdAt: runner.clock.now())
        draft.applicationId = application
        draft.face = VonageFace.name
        // A workflow of email steps alone verifies its address; it shows masked, as a number does.
        let (shown, contact): (String, (key: String, value: EventValue)) = start.number.map {
            ($0.redacted, ("phone_number", .phone($0.e164)))
        } ?? (EmailAddress.redacted(start.contact), ("email", .text(EmailAddress.redacted(start.contact))))
        draft.lineType = start.number?.lineType.rawValue
        let event = EventDraft("api:create",
                               note: "The app's backend asked Tacit to verify \(shown) "
                                   + "through the Vonage Verify v2 face (POST /v2/verify).",
                               data: [contact.key: contact.value,
                                      "client_ref": start.options.clientRef.map { .text($0) } ?? .null,
                                      "face": .text(draft.face)])
        let outcome: WorkflowRunner.Outcome<Void>
        do {
            outcome = try await runner.create(draft, events: [event], idempotency: nil)
        } catch let error as StoreError where error == .concurrentVerification {
            let applications = store as? any ApplicationStore
            let pending = try? await applications?.pendingVerification(contact: start.contact,
                                                                       application: application)
            // The in-flight request_id only when this face started it: the face shows no
            // other API's id (docs/compatible-apis.md#one-face-one-id-form).
            var own: String?
            if let pending = pending ?? nil, IDGenerator.isVonageRequestID(pending),
               (try? await store.verification(id: pending))?.face == VonageFace.name {
                own = pending
            }
            throw VonageProblem.concurrent(requestId: own)
        }
        var body: [String: JSONValue] = ["request_id": .string(id)]
        if let url = outcome.checkURL, let vonage = silent.vonageURL(for: url, id: id) {
            body["check_url"] = .string(vonage)
        }
        return .json(status: 202, bytes: JSONText.object(body))
    }

    func next(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.requestID(request)
        let event = EventDraft("api:next",
                               note: "The app asked to move on to the next channel now "
                                   + "(POST /v2/verify/{id}/next_workflow).")
        do {
            guard try await runner.transition(id, events: [event], { turn in
                try Self.requireOwn(turn.verification)
                try turn.handle(.next)
            }) != nil else {
                throw VonageProblem.notFound
            }
        } catch let refusal as WorkflowRefusal {
            throw refusal == .noNextChannel ? VonageProblem.noMoreWorkflows : VonageProblem.notFound
        }
        return .empty(status: 200)
    }

    /// `DELETE /v2/verify/{id}`: 204 within Vonage's window (`VonageCancelWindow`), 409
    /// outside it with nothing changed, 204 again for one already cancelled.
    func cancel(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.requestID(request)
        let event = EventDraft("api:cancel", note: "The app cancelled the verification (DELETE /v2/verify/{id}).")
        let now = runner.clock.now()
        do {
            let cancelled = try await runner.transition(id, events: [event]) { machine in
                try Self.requireOwn(machine.verification)
                guard VonageCancelWindow.allows(machine.verification, at: now) else {
                    throw VonageProblem.cancelOutsideWindow
                }
                return try machine.handle(.cancel)
            }
            guard cancelled != nil else { throw VonageProblem.notFound }
        } catch let refusal as WorkflowRefusal {
            // A second cancel finds what the first left: done, as Vonage's DELETE is.
            if case .notPending(.cancelled) = refusal { return .empty(status: 204) }
            throw VonageProblem.notFound
        }
        return .empty(status: 204)
    }

    /// The `:id` of a route the gate already matched to the caller's own verification.
    static func requestID(_ request: HTTPRequest) throws(VonageProblem) -> String {
        guard let id = request.pathParameters["id"], IDGenerator.isVonageRequestID(id) else { throw .notFound }
        return id
    }

    /// Only a verification this face started is Vonage's to show or change; any other
    /// (`/v1`'s, another face's) answers as an unknown request does.
    static func requireOwn(_ verification: Verification) throws(VonageProblem) {
        guard verification.face == VonageFace.name else { throw .notFound }
    }

    /// A body that is clearly not JSON is refused, as `/v1` refuses it; none or a generic type is let through.
    static func requireJSON(_ request: HTTPRequest) throws(VonageProblem) {
        do { try request.requireJSON() } catch { throw .unsupportedMediaType }
    }
}
