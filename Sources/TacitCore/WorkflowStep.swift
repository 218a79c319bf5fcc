import Foundation

/// One step of a verification's workflow and what happened to it.
public struct WorkflowStep: Codable, Sendable, Equatable {
    public var channel: Channel
    public var status: StepStatus
    public var startedAt: Date?
    public var endedAt: Date?
    /// Why the step ended other than completed: a stable reason such as `timeout`, `rejected`, `no_coverage`.
    public var reason: String?

    public init(channel: Channel, status: StepStatus = .unused, startedAt: Date? = nil, endedAt: Date? = nil, reason: String? = nil) {
        self.channel = channel
        self.status = status
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.reason = reason
    }
}
