import Foundation
import TacitCore
import TacitStore

/// The runner's side of the send outbox: a step's code becomes a sealed row in the
/// transaction that issued it, the send worker builds the message from it, and the
/// provider's answer is applied in the transition that deletes the row.
extension WorkflowRunner {
    /// One row per `.sendMessage` among `effects`, with the code issued for its step.
    func queuedSends(_ effects: [WorkflowEffect], codes: [Int: String], verificationId: String,
                     at: Date) throws -> [QueuedSend] {
        try effects.compactMap { effect in
            guard case .sendMessage(let step, let channel) = effect, let code = codes[step] else { return nil }
            return try sends.row(verificationId: verificationId, step: step, channel: channel, code: code, at: at)
        }
    }

    /// The message that carries `code` for `step`, in the verification's locale, in its
    /// application's template when it has one (docs/locales.md#templates), spoken (for a
    /// call) by that locale's voice; with what was composed, for the `code_sent` event.
    func message(for verification: Verification, step: Int, channel: Channel, code: String,
                 key: String) async -> (OutboundMessage, ComposedMessage) {
        let application = verification.applicationId
        // A store that can't answer now leaves the built-in text: the code still goes out.
        let templates = (try? await templateStore?.templates(application: application)) ?? []
        let settings = try? await applicationStore?.applicationSettings(id: application)
        let composed = MessageComposer.compose(channel, for: verification, code: code, templates: templates,
                                               settings: settings)
        let to = channel == .email ? verification.emailAddress ?? "" : verification.phoneNumber
        var message = OutboundMessage(channel: channel, to: to, body: composed.body,
                                      verificationId: verification.id, step: step,
                                      language: String(composed.language.prefix { $0 != "-" }),
                                      locale: verification.locale,
                                      voice: LocaleCatalog.builtIn.voice(for: verification.locale),
                                      code: code, brand: verification.brand, idempotencyKey: key,
                                      applicationId: verification.applicationId)
        if channel == .email {
            message.subject = composed.subject
                ?? MessageText.emailSubject(brand: verification.brand, locale: verification.locale)
            message.html = MessageText.emailHTML(composed.body, code: code, language: composed.language)
        }
        return (message, composed)
    }

    /// Applies the sender's answer for `row` in one transition that also deletes the row,
    /// with a timeline event for each provider asked. Hops that come back after the
    /// verification ended are still recorded, and the summary is written again after them.
    /// nil when the verification is gone or the store refused the write.
    func applyDelivery(_ result: DeliveryResult, of row: QueuedSend, channel: Channel,
                       composed: ComposedMessage? = nil) async -> Performed? {
        metrics.sent(channel, accepted: result.isAccepted)
        let input = WorkflowInput.codeDelivery(step: row.step, delivered: result.isAccepted, reason: result.reason)
        let hops = ProviderHopNotes.drafts(result.attempts, channel: channel, step: row.step)
        let notes = result.isAccepted ? [SendNote.accepted(acceptedSend(result, step: row.step, channel: channel))] : []
        let outcome = try? await transition(row.verificationId, events: hops, sendsDone: [row.id],
                                            notes: notes, composed: composed) { turn in
            // Neither input is ever refused.
            try turn.handle(!hops.isEmpty && turn.verification.status != .pending ? .eventRecorded : input)
        }
        return outcome.map { Performed(verification: $0.verification, checkURL: $0.checkURL) }
    }

    /// Waits, until `deadline`, for the send of `step` to end; what it left, or nil.
    func awaitSend(of verificationId: String, step: Int, until deadline: Date) async -> Performed? {
        await sends.waiters.wait(for: QueuedSend.key(verificationId: verificationId, step: step), until: deadline,
                                 clock: clock)
    }
}
