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

    /// The message that carries `code` for `step`, in the verification's locale, spoken (for
    /// a call) by that locale's voice.
    func message(for verification: Verification, step: Int, channel: Channel, code: String,
                 key: String) -> OutboundMessage {
        let body = MessageText.body(channel: channel, brand: verification.brand, code: code,
                                    locale: verification.locale)
        let tag = MessageText.language(for: verification.locale)
        let to = channel == .email ? verification.emailAddress ?? "" : verification.phoneNumber
        var message = OutboundMessage(channel: channel, to: to, body: body,
                               verificationId: verification.id, step: step,
                               language: String(tag.prefix { $0 != "-" }), locale: verification.locale,
                               voice: LocaleCatalog.builtIn.voice(for: verification.locale),
                               code: code, brand: verification.brand, idempotencyKey: key,
                               applicationId: verification.applicationId)
        if channel == .email {
            message.subject = MessageText.emailSubject(brand: verification.brand, locale: verification.locale)
            message.html = MessageText.emailHTML(body, code: code, language: tag)
        }
        return message
    }

    /// Applies the sender's answer for `row` in one transition that also deletes the row,
    /// with a timeline event for each provider asked. Hops that come back after the
    /// verification ended are still recorded, and the summary is written again after them.
    /// nil when the verification is gone or the store refused the write.
    func applyDelivery(_ result: DeliveryResult, of row: QueuedSend, channel: Channel) async -> Performed? {
        metrics.sent(channel, accepted: result.isAccepted)
        let input = WorkflowInput.codeDelivery(step: row.step, delivered: result.isAccepted, reason: result.reason)
        let hops = ProviderHopNotes.drafts(result.attempts, channel: channel, step: row.step)
        let outcome = try? await transition(row.verificationId, events: hops, sendsDone: [row.id]) { turn in
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
