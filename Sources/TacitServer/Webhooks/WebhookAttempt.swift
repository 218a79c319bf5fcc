import Foundation
import TacitCore

/// What one delivery attempt did, as reported to observers (tests, metrics).
public struct WebhookAttempt: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case delivered
        /// Failed; tried again at `retryAt`, or never when nil.
        case failed(retryAt: Date?)
        /// The endpoint answered 410 Gone and is disabled.
        case endpointDisabled
        /// The target guard refused the endpoint's address.
        case refused
    }
    public var messageId: String
    public var verificationId: String
    public var type: String
    public var attempt: Int
    /// The HTTP status, nil when no answer came.
    public var statusCode: Int?
    public var result: Result

    /// The timeline event that records this attempt on the verification.
    func draft(endpoint: String) -> EventDraft {
        let answer = statusCode.map { "HTTP \($0)" } ?? "no answer"
        let data: [String: EventValue] = ["webhook_id": .text(messageId), "type": .text(type), "attempt": .int(attempt),
                                          "status_code": statusCode.map { .int($0) } ?? .null]
        switch result {
        case .delivered:
            return EventDraft("webhook:delivered", source: .webhook, outcome: .success,
                              note: "The \(type) webhook was delivered to \(endpoint) (\(answer),"
                                    + " attempt \(attempt)).", data: data)
        case .failed(let retryAt):
            var data = data
            data["retry_at"] = retryAt.map { .date($0) } ?? .null
            let next = retryAt == nil ? "no attempts are left" : "it will be sent again later"
            return EventDraft("webhook:failed", source: .webhook, outcome: .failure,
                              note: "The \(type) webhook to \(endpoint) failed (\(answer), attempt \(attempt));"
                                    + " \(next).", data: data)
        case .endpointDisabled:
            return EventDraft("webhook:failed", source: .webhook, outcome: .failure,
                              note: "\(endpoint) answered 410 Gone to the \(type) webhook,"
                                    + " so that endpoint is now disabled.", data: data)
        case .refused:
            return EventDraft("webhook:failed", source: .webhook, outcome: .failure,
                              note: "The \(type) webhook was not sent: \(endpoint) is on a private or reserved network"
                                    + " address.", data: data)
        }
    }
}
