import Foundation
import TacitCore

/// The timeline's provider hops: one `source: provider` event per provider a message
/// was handed to, with the provider's name and its message id or error code. Built
/// from `DeliveryAttempt`s, which hold no number, code or credential, so nothing here
/// can put one on the timeline. Ids and error codes ride in the data, typed, since
/// notes have every run of 4 digits masked.
enum ProviderHopNotes {
    /// `step` is recorded with each hop: a provider's callback acts only on the step whose
    /// accepted message it names (`CallbackRoutes.namesRecordedMessage`).
    static func drafts(_ attempts: [DeliveryAttempt], channel: Channel, step: Int? = nil) -> [EventDraft] {
        attempts.enumerated().map { index, attempt in
            let next = attempts.indices.contains(index + 1) ? attempts[index + 1].provider : nil
            return draft(attempt, channel: channel, next: next, step: step)
        }
    }

    static func draft(_ attempt: DeliveryAttempt, channel: Channel, next: String?, step: Int? = nil) -> EventDraft {
        var data: [String: EventValue] = ["provider": .text(attempt.provider)]
        if let step { data["step"] = .int(step) }
        if let id = attempt.messageId { data["message_id"] = .providerId(id) }
        if let reason = attempt.reason { data["reason"] = .text(reason) }
        if let code = attempt.errorCode.flatMap({ Int($0) }) { data["error_code"] = .int(code) }
        let why = attempt.detail.map { ": \($0)" } ?? ""
        if attempt.reason == ProviderCircuit.openReason {
            return skipped(attempt, channel: channel, next: next, data: data)
        }
        switch attempt.refusal {
        case nil:
            return EventDraft("provider:accepted", channel: channel, source: .provider, outcome: .success,
                              note: """
                                  \(attempt.provider) accepted the \(channel.spokenName) message for delivery \
                                  (its id is in the data).
                                  """,
                              data: data)
        case .transient?:
            if let next { data["next_provider"] = .text(next) }
            let then = next.map { " Failing over to \($0) in the same step." }
                ?? " No other provider is left for this step."
            return EventDraft(next == nil ? "provider:failed" : "provider:failed_over", channel: channel,
                              source: .provider, outcome: .failure,
                              note: "\(attempt.provider) could not take the \(channel.spokenName) message for"
                                    + " now\(why).\(then)",
                              data: data)
        case .permanent?:
            return EventDraft("provider:refused", channel: channel, source: .provider, outcome: .failure,
                              note: "\(attempt.provider) refused the \(channel.spokenName) message for good\(why),"
                                    + " so this step fails and no other provider is tried.",
                              data: data)
        }
    }

    /// A provider the router did not ask because its circuit is open.
    static func skipped(_ attempt: DeliveryAttempt, channel: Channel, next: String?,
                        data: [String: EventValue]) -> EventDraft {
        var data = data
        if let next { data["next_provider"] = .text(next) }
        let then = next.map { " Trying \($0) in the same step." } ?? " No other provider is left for this step."
        return EventDraft("provider:skipped", channel: channel, source: .provider, outcome: .failure,
                          note: "\(attempt.provider) was skipped because its circuit is open after repeated"
                                + " failures.\(then)",
                          data: data)
    }
}
