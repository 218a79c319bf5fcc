import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// `POST` at each provider callback's path (`/v1/callbacks/<provider>`): signed status
/// reports from channel and silent-auth providers, verified and read by the provider's
/// ``ProviderCallback``. A verified report for a verification's active step feeds the
/// engine (a failed delivery fails the step over); anything else is acknowledged without
/// effect. Replays are refused here, the same for every provider.
struct CallbackRoutes: Sendable {
    let runner: WorkflowRunner
    let store: any VerificationStore
    let callbacks: [any ProviderCallback]
    /// The public base URL, for callbacks signed over their full URL.
    let baseURL: @Sendable () -> String
    /// Told of the mobile network a receipt names (docs/fraud.md#mobile-networks); nil counts none.
    var ledger: PrefixLedger?

    /// Open to callers without a key: each report proves itself with its provider's signature.
    func register(_ router: inout RouteTable) {
        for callback in callbacks {
            router.add("POST", callback.path, .open) { await receive($0, by: callback) }
        }
    }

    func receive(_ request: HTTPRequest, by callback: any ProviderCallback) async -> HTTPResponse {
        let now = runner.clock.now()
        do {
            let reading = try callback.read(request, context: CallbackContext(now: now, baseURL: baseURL()))
            switch reading.content {
            case .delivery(let report):
                // The unsigned part of a callback (a URL's `ref`) only says where to look: the
                // step must have recorded the very message the signed part names.
                guard try await namesRecordedMessage(report) else { return APIProblem.callbackMessageMismatch.response }
                try await remember(reading)
                try await apply(report)
            case .silentStatus(let status):
                // Only the flow that recorded this very check may hear of it, replayed or not.
                guard let check = status.check, let reference = status.reference,
                      let verification = try await store.verification(id: reference.verificationId),
                      verification.silentCheck == check else { return APIProblem.callbackCheckMismatch.response }
                try await remember(reading)
                try await apply(status, check: check, verificationId: reference.verificationId)
            }
            return .empty(status: 204)
        } catch let rejection as CallbackRejection {
            return Self.problem(rejection).response
        } catch {
            return APIProblem.unavailable.response
        }
    }

    /// Whether `report` may act on the step it names: true when it names no pending
    /// verification's active step (it is then acknowledged without effect), or when that
    /// step's timeline records this provider accepting this very message id
    /// (`provider:accepted` with `provider`, `message_id` and `step`, written when it was sent).
    func namesRecordedMessage(_ report: ProviderReport) async throws -> Bool {
        guard let reference = report.reference,
              let verification = try await store.verification(id: reference.verificationId),
              verification.status == .pending, verification.currentStep == reference.step else { return true }
        guard let messageId = report.messageId else { return false }
        let events = try await store.events(id: reference.verificationId, after: 0, limit: Self.timelineScan)
        return events.contains { event in
            event.label == "provider:accepted" && event.data["provider"] == .string(report.provider)
                && event.data["message_id"] == .string(messageId)
                && event.data["step"] == .number(Double(reference.step))
        }
    }

    /// How much of a timeline is read to find the message a callback names: far more
    /// than the events of a verification's ten steps and their sends.
    static let timelineScan = 2000

    /// Refuses a callback whose key was seen before; otherwise keeps the key until it expires.
    private func remember(_ reading: CallbackReading) async throws {
        guard try await store.rememberCallback(key: reading.replayKey, expiresAt: reading.replayExpiresAt,
                                               now: runner.clock.now()) else {
            throw CallbackRejection.replayed
        }
    }

    /// Feeds a report to the engine when it is about the active step; otherwise records only
    /// what it says of the send. Progress (queued, sent, ringing…) is only recorded; a failure
    /// fails the step over. A price and a final receipt (delivered or not) are kept on the send
    /// whatever state the verification is in, in the report's one transition: providers report
    /// on a message after it went, often after the code was checked (docs/api.md#the-summary).
    func apply(_ report: ProviderReport) async throws {
        guard let reference = report.reference else { return }
        let notes = Self.notes(report, reference: reference)
        let found = try await store.verification(id: reference.verificationId)
        guard let verification = found, verification.status == .pending,
              verification.currentStep == reference.step else {
            if !notes.isEmpty { try await runner.transition(reference.verificationId, notes: notes) { _ in } }
            if let found { await noteNetwork(report, reference: reference, of: found) }
            return
        }
        let channel = verification.workflow[reference.step].channel
        let step = reference.step
        var data: [String: EventValue] = ["provider": .text(report.provider), "status": .text(report.status)]
        if let id = report.messageId { data["message_id"] = .providerId(id) }
        if let code = report.errorCode.flatMap({ Int($0) }) { data["error_code"] = .int(code) }
        if let network = report.network { data["network"] = .mobileNetwork(network) }
        let says = "The \(report.provider) callback says the \(channel.spokenName) message"
        switch report.kind {
        case .failed:
            let code = report.errorCode == nil ? "" : "; its error code is in the data"
            let event = EventDraft("provider:failed", channel: channel, source: .provider, outcome: .failure,
                                   note: "\(says) was not delivered (\(report.status)\(code)).", data: data)
            try await runner.transition(reference.verificationId, events: [event], notes: notes) {
                try $0.handle(.codeDelivery(step: step, delivered: false, reason: "provider_" + report.status))
            }
        case .delivered:
            let event = EventDraft("provider:delivered", channel: channel, source: .provider, outcome: .success,
                                   note: "\(says) reached the phone (\(report.status)).", data: data)
            try await runner.transition(reference.verificationId, events: [event], notes: notes) { _ in }
        case .progress:
            let event = EventDraft("provider:status", channel: channel, source: .provider,
                                   note: "\(says) is on its way (\(report.status)).", data: data)
            try await runner.transition(reference.verificationId, events: [event], notes: notes) { _ in }
        }
        await noteNetwork(report, reference: reference, of: verification)
    }

    /// Tells the prefix ledger of the network `report` names, once its transition is kept: the
    /// number's range is on it, and the message counts as a send on it when no receipt named a
    /// network for the message before (the send `keep` gives it to), and as a conversion too when
    /// its verification had converted already, before any network was known to count it for.
    private func noteNetwork(_ report: ProviderReport, reference: CallbackReference,
                             of verification: Verification) async {
        guard let ledger, let network = report.network, !verification.phoneNumber.isEmpty else { return }
        let isNewSend = verification.oldestMessage(step: reference.step, provider: report.provider,
                                                   lacking: { $0.network == nil }) != nil
        // Completed on a code step, as the check counts conversions, before any receipt named a network.
        let converted = verification.status == .completed && verification.reportedNetwork == nil
            && verification.workflow.contains { $0.status == .completed && $0.channel != .silentAuth }
        await ledger.reported(network, for: verification.phoneNumber, application: verification.applicationId,
                              isNewSend: isNewSend, converted: isNewSend && converted)
    }

    /// What `report` says of its send that the verification keeps: its price, its final receipt,
    /// and the mobile network it names.
    static func notes(_ report: ProviderReport, reference: CallbackReference) -> [SendNote] {
        var notes: [SendNote] = []
        if let price = report.price, let currency = report.currency {
            notes.append(.priced(step: reference.step, provider: report.provider, price: price, currency: currency))
        }
        if let network = report.network {
            notes.append(.network(step: reference.step, provider: report.provider, network))
        }
        switch report.kind {
        case .delivered: notes.append(.receipt(step: reference.step, provider: report.provider, .delivered))
        case .failed: notes.append(.receipt(step: reference.step, provider: report.provider, .failed))
        case .progress: break
        }
        return notes
    }

    /// Records a silent check's status and applies its failure, only while its check is the active step's.
    private func apply(_ status: ProviderSilentStatus, check: SilentCheckReference,
                       verificationId: String) async throws {
        _ = try await runner.recordingTransition(verificationId) { machine -> (Void, [EventDraft]) in
            guard machine.activeSilentCheck == check else { return ((), []) }
            if let failure = status.failure { try machine.handle(.silentFailed(step: check.step, failure: failure)) }
            return ((), [status.event])
        }
    }

    static func problem(_ rejection: CallbackRejection) -> APIProblem {
        switch rejection {
        case .unconfigured: APIProblem.notFound
        case .badSignature:
            APIProblem(status: 401, type: "invalid-signature", title: "Invalid signature",
                       detail: "The callback's signature does not verify.")
        case .stale:
            APIProblem(status: 401, type: "stale-callback", title: "Stale callback",
                       detail: "The callback's signed issue time is outside the accepted window.")
        case .replayed:
            APIProblem(status: 409, type: "replayed-callback", title: "Replayed callback",
                       detail: "This signed callback was already received.")
        case .malformed: APIProblem.malformedJSON("The callback body is not in the provider's format.")
        }
    }
}

extension APIProblem {
    static let callbackMessageMismatch = APIProblem(
        status: 409, type: "callback-message-mismatch", title: "Callback for another message",
        detail: "The callback names a message Tacit did not record sending for that verification's step.")

    static let callbackCheckMismatch = APIProblem(
        status: 409, type: "callback-check-mismatch", title: "Callback for another check",
        detail: "The callback names a request that is not the silent check Tacit started for this verification.")
}
