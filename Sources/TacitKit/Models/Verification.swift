import Foundation

/// A verification as returned by start and state calls.
public struct Verification: Codable, Sendable, Equatable {
    /// One step of the workflow with its status.
    public struct Step: Codable, Sendable, Equatable {
        public var channel: Channel
        public var status: StepStatus
        public init(channel: Channel, status: StepStatus) {
            self.channel = channel
            self.status = status
        }
    }

    /// Risk signals gathered for the number.
    public struct Risk: Codable, Sendable, Equatable {
        public var simSwapped: Bool?
        public init(simSwapped: Bool? = nil) { self.simSwapped = simSwapped }
        enum CodingKeys: String, CodingKey { case simSwapped = "sim_swapped" }
    }

    public var requestId: String
    public var status: VerificationStatus
    /// The active step's channel, when a step is active.
    public var channel: Channel?
    /// Present only while the silent step is active and covered.
    public var checkURL: URL?
    /// Authorises device-side calls for this verification only.
    public var clientToken: String?
    public var expiresAt: Date?
    public var workflow: [Step]
    public var risk: Risk?
    /// The silent-auth provider's own id for the check (Vonage's request id, tru.ID's
    /// check id), when the check URL ends at that provider: its final answer carries this
    /// id instead of ``requestId``, and the device compares it before using the code.
    public var providerRequestId: String?

    public init(
        requestId: String, status: VerificationStatus, channel: Channel? = nil,
        checkURL: URL? = nil, clientToken: String? = nil, expiresAt: Date? = nil,
        workflow: [Step] = [], risk: Risk? = nil, providerRequestId: String? = nil
    ) {
        self.providerRequestId = providerRequestId
        self.requestId = requestId
        self.status = status
        self.channel = channel
        self.checkURL = checkURL
        self.clientToken = clientToken
        self.expiresAt = expiresAt
        self.workflow = workflow
        self.risk = risk
    }

    /// The index of the active step, if any: the explicit `channel` wins over the
    /// workflow list because the server names it directly.
    public var activeStepIndex: Int? {
        if let index = workflow.firstIndex(where: { $0.status == .active }) { return index }
        guard let channel else { return nil }
        return workflow.firstIndex(where: { $0.channel == channel })
    }

    /// The channel of the active step, if any.
    public var activeChannel: Channel? {
        channel ?? activeStepIndex.map { workflow[$0].channel }
    }

    enum CodingKeys: String, CodingKey {
        case requestId = "request_id", status, channel, checkURL = "check_url"
        case clientToken = "client_token", expiresAt = "expires_at", workflow, risk
        case providerRequestId = "provider_request_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestId = try c.decode(String.self, forKey: .requestId)
        status = try c.decode(VerificationStatus.self, forKey: .status)
        channel = try c.decodeIfPresent(Channel.self, forKey: .channel)
        checkURL = try c.decodeIfPresent(URL.self, forKey: .checkURL)
        clientToken = try c.decodeIfPresent(String.self, forKey: .clientToken)
        expiresAt = try c.decodeIfPresent(Date.self, forKey: .expiresAt)
        workflow = try c.decodeIfPresent([Step].self, forKey: .workflow) ?? []
        risk = try c.decodeIfPresent(Risk.self, forKey: .risk)
        providerRequestId = try c.decodeIfPresent(String.self, forKey: .providerRequestId)
    }
}

extension Verification: CustomStringConvertible {
    /// Leaves out the client token and check URL, which are secrets.
    public var description: String {
        "Verification(\(requestId), \(status.rawValue), \(activeChannel?.rawValue ?? "-"))"
    }
}
