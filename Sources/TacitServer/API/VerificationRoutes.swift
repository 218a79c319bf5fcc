import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitPhone
import TacitStore

/// The `/v1/verifications` routes (docs/api.md#routes).
struct VerificationRoutes: Sendable {
    let runner: WorkflowRunner
    let store: any VerificationStore
    let secrets: ServerSecrets
    let ids: IDGenerator
    let phones: PhoneNumberParser
    let allowVirtualRange: Bool
    /// The provider to ask about a silent check it issued, by its route name.
    var providerChecks: @Sendable (String) -> (any SilentProviderCheck)? = { _ in nil }

    func register(_ router: inout RouteTable) {
        router.add("POST", "/v1/verifications", .write, reading: readStart, starting: create)
        router.add("GET", "/v1/verifications/:id", .read, throwing: state)
        router.add("POST", "/v1/verifications/:id/check", .write(orClientToken: Scope.silentAuthSubmit),
                   checking: { request, _ in try await check(request) })
        router.add("POST", "/v1/verifications/:id/next", .write, throwing: next)
        router.add("DELETE", "/v1/verifications/:id", .write, throwing: cancel)
    }

    /// The start body, parsed once for the start guard and `create`.
    func readStart(_ request: HTTPRequest) -> StartSubmission {
        StartSubmission(body: request.body, phones: phones, allowVirtualRange: allowVirtualRange)
    }

    func create(_ request: HTTPRequest, _ submission: StartSubmission) async throws -> HTTPResponse {
        try request.requireJSON()
        let (start, number) = try submission.validated()
        let application = ActingApplication.id ?? Application.defaultID
        let idempotency = try await idempotencyRecord(for: request, application: application)
        if let idempotency, let replay = try await replay(idempotency, request) { return replay }
        let id = ids.make()
        let clientToken = ClientToken.make(for: id)
        let options = try await options(start.options, defaultsOf: application, body: request.body)
        var draft = Verification(id: id, phoneNumber: number.e164, options: options,
                                 clientTokenHash: try secrets.tokenHash(clientToken), createdAt: runner.clock.now())
        draft.applicationId = application
        draft.face = Verification.v1Face
        draft.lineType = number.lineType.rawValue
        let event = EventDraft("api:create", note: """
                                   The app's backend asked Tacit to verify \(number.redacted) \
                                   (POST /v1/verifications).
                                   """,
                               data: ["phone_number": .phone(number.e164),
                                      "client_ref": start.options.clientRef.map { .text($0) } ?? .null,
                                      "face": .text(draft.face)])
        let outcome: WorkflowRunner.Outcome<Void>
        do {
            outcome = try await runner.create(draft, events: [event], idempotency: idempotency)
        } catch let error as StoreError where error == .concurrentVerification {
            throw APIProblem.concurrent
        } catch let error as StoreError where error == .idempotencyKeyReused {
            if let idempotency, let replay = try await replay(idempotency, request) { return replay }
            throw APIProblem.idempotencyReused
        }
        let body = VerificationBody(outcome.verification, checkURL: outcome.checkURL, clientToken: clientToken).bytes
        if let idempotency {
            try await store.saveIdempotentResponse(key: idempotency.key, status: 202,
                                                   sealedBody: secrets.fieldProtection.seal(body))
        }
        return .json(status: 202, bytes: body, headers: [("Location", "/v1/verifications/\(outcome.verification.id)")])
    }

    func state(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let verification = try await store.verification(id: try request.verificationID()) else {
            throw APIProblem.notFound
        }
        return .json(bytes: VerificationBody(verification).bytes)
    }

    /// Reports the runner's `CheckResult` beside the response, for the failed-check guard.
    func check(_ request: HTTPRequest) async throws -> CheckAnswer {
        try request.requireJSON()
        let id = try request.verificationID()
        var json = try JSONRequest(body: request.body)
        // Required, but for a silent check that ends at a provider handing the device nothing
        // (whose backend checks without one).
        let code = json.string("code")
        try json.finish()
        let submitted = code ?? ""
        // Validated inside the check's transaction, against the state it changes: no read before it.
        let result: CheckResult?
        do {
            result = try await runner.check(id, code: submitted) { verification in
                guard code != nil else {
                    throw APIProblem.invalid([InvalidParameter(name: "code", reason: "is required")])
                }
                try validate(code: submitted, for: verification)
                return [Self.checkEvent(verification.activeChannel, code: submitted)]
            }
        } catch let atProvider as CompletesAtProvider {
            return try await completeAtProvider(id, check: atProvider.check, code: code)
        }
        guard let result else { throw APIProblem.notFound }
        return CheckAnswer(response: Self.response(to: result, id: id), result: result)
    }

    static func checkEvent(_ channel: Channel?, code: String?) -> EventDraft {
        EventDraft("api:check", channel: channel, note: "A code was submitted for checking (POST"
                                                        + " /v1/verifications/{id}/check).",
                   data: code.map { ["code": .code($0)] } ?? [:])
    }

    static func response(to result: CheckResult, id: String) -> HTTPResponse {
        switch result {
        case .completed: .json(bytes: JSONText.object(["request_id": .string(id), "status": .string("completed")]))
        case .wrongCode(let remaining): APIProblem.invalidCode(remaining: remaining).response
        case .tooManyAttempts: APIProblem.tooManyAttempts.response
        case .notPending(let status): APIProblem.notPending(status).response
        }
    }

    func next(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.verificationID()
        let event = EventDraft("api:next", note: "The app asked to skip to the next step now (POST"
                                                 + " /v1/verifications/{id}/next).")
        let outcome: WorkflowRunner.Outcome<Void>?
        do {
            outcome = try await runner.transition(id, events: [event]) { try $0.handle(.next) }
        } catch let refusal as WorkflowRefusal {
            switch refusal {
            case .noNextChannel: throw APIProblem.noNextChannel
            case .notPending(let status): throw APIProblem.notPending(status)
            }
        }
        guard outcome != nil, let current = try await store.verification(id: id) else { throw APIProblem.notFound }
        return .json(bytes: VerificationBody(current).bytes)
    }

    func cancel(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try request.verificationID()
        let event = EventDraft("api:cancel", note: "The app cancelled the verification (DELETE"
                                                   + " /v1/verifications/{id}).")
        do {
            guard try await runner.transition(id, events: [event], { try $0.handle(.cancel) }) != nil else {
                throw APIProblem.notFound
            }
        } catch let refusal as WorkflowRefusal {
            if case .notPending(.cancelled) = refusal { return .empty(status: 204) }
            if case .notPending(let status) = refusal { throw APIProblem.notPending(status) }
            throw APIProblem.notPending(.pending)
        }
        return .empty(status: 204)
    }
}
