import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// `POST /v1/callbacks/vonage` (a Messages API callback with a Bearer token, or an SMS API
/// delivery receipt with `sig`) and `POST /v1/callbacks/twilio`: signed status reports from
/// channel providers. A verified report for a verification's active step feeds the engine
/// (a failed delivery fails the step over); anything else is acknowledged without effect.
struct CallbackRoutes: Sendable {
    let runner: WorkflowRunner
    let store: any VerificationStore
    let settings: CallbackSettings
    /// The public base URL, for the URL Twilio signed.
    let baseURL: @Sendable () -> String

    /// Open to callers without a key: each report proves itself with its provider's signature.
    func register(_ router: inout RouteTable) {
        router.add("POST", "/v1/callbacks/vonage", .open) { await vonage($0) }
        router.add("POST", "/v1/callbacks/twilio", .open) { await twilio($0) }
    }

    func vonage(_ request: HTTPRequest) async -> HTTPResponse {
        guard let secret = settings.vonageSignatureSecret else { return APIProblem.notFound.response }
        let now = runner.clock.now()
        let authorization = request.header("authorization")
        guard !VonageReceipt.isReceipt(authorization: authorization) else {
            return await handle {
                let parameters = try VonageReceipt.parameters(query: request.query, body: request.body,
                                                              contentType: request.header("content-type"))
                let receipt = try VonageReceipt(parameters: parameters, secret: secret, method: settings.vonageSignatureMethod,
                                                now: now, maxAge: settings.maxAge)
                return (receipt.report, receipt.replayKey, receipt.replayExpiresAt)
            }
        }
        if let silent = VonageSilentEvent(body: request.body) {
            return await vonageSilent(request, event: silent, secret: secret)
        }
        return await handle {
            let callback = try VonageCallback(authorization: authorization, body: request.body, secret: secret, now: now,
                                              maxAge: settings.maxAge, queryReference: request.query["ref"])
            return (callback.report, callback.replayKey, callback.replayExpiresAt)
        }
    }

    func twilio(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = settings.twilioAuthToken else { return APIProblem.notFound.response }
        let now = runner.clock.now()
        let url = TwilioCallback.signedURL(base: baseURL(), path: request.path, query: request.query)
        return await handle {
            let callback = try TwilioCallback(signature: request.header("x-twilio-signature"), url: url, query: request.query,
                                              body: request.body, authToken: token)
            return (callback.report, callback.replayKey, now.addingTimeInterval(settings.twilioReplayWindow))
        }
    }

    private func handle(_ verify: () throws -> (ProviderReport, String, Date)) async -> HTTPResponse {
        do {
            let (report, key, expiresAt) = try verify()
            guard try await store.rememberCallback(key: key, expiresAt: expiresAt, now: runner.clock.now()) else {
                throw CallbackRejection.replayed
            }
            try await apply(report)
            return .empty(status: 204)
        } catch let rejection as CallbackRejection {
            return Self.problem(rejection).response
        } catch {
            return APIProblem.unavailable.response
        }
    }

    /// Feeds a report to the engine when it is about the active step; otherwise does nothing.
    /// Progress (queued, sent, ringing…) is only recorded; a failure fails the step over.
    func apply(_ report: ProviderReport) async throws {
        guard let reference = report.reference,
              let verification = try await store.verification(id: reference.verificationId),
              verification.status == .pending, verification.currentStep == reference.step else { return }
        let channel = verification.workflow[reference.step].channel
        let step = reference.step
        var data: [String: EventValue] = ["provider": .text(report.provider), "status": .text(report.status)]
        if let id = report.messageId { data["message_id"] = .providerId(id) }
        if let code = report.errorCode.flatMap({ Int($0) }) { data["error_code"] = .int(code) }
        let says = "The \(report.provider) callback says the \(channel.spokenName) message"
        switch report.kind {
        case .failed:
            let code = report.errorCode == nil ? "" : "; its error code is in the data"
            let event = EventDraft("provider:failed", channel: channel, source: .provider, outcome: .failure,
                                   note: "\(says) was not delivered (\(report.status)\(code)).", data: data)
            try await runner.transition(reference.verificationId, events: [event]) {
                try $0.handle(.codeDelivery(step: step, delivered: false, reason: "provider_" + report.status))
            }
        case .delivered:
            let event = EventDraft("provider:delivered", channel: channel, source: .provider, outcome: .success,
                                   note: "\(says) reached the phone (\(report.status)).", data: data)
            try await runner.transition(reference.verificationId, events: [event]) { _ in }
        case .progress:
            let event = EventDraft("provider:status", channel: channel, source: .provider,
                                   note: "\(says) is on its way (\(report.status)).", data: data)
            try await runner.transition(reference.verificationId, events: [event]) { _ in }
        }
    }

    static func problem(_ rejection: CallbackRejection) -> APIProblem {
        switch rejection {
        case .badSignature: APIProblem(status: 401, type: "invalid-signature", title: "Invalid signature", detail: "The callback's signature does not verify.")
        case .stale: APIProblem(status: 401, type: "stale-callback", title: "Stale callback", detail: "The callback's signed issue time is outside the accepted window.")
        case .replayed: APIProblem(status: 409, type: "replayed-callback", title: "Replayed callback", detail: "This signed callback was already received.")
        case .malformed: APIProblem.malformedJSON("The callback body is not in the provider's format.")
        }
    }
}
