/// The body of `POST /v1/verifications`. Every field but `phoneNumber` is optional.
public struct StartVerificationRequest: Codable, Sendable, Equatable {
    /// One workflow step in a start request.
    public struct Step: Codable, Sendable, Equatable {
        public var channel: Channel
        public init(channel: Channel) { self.channel = channel }
    }

    /// The SIM-swap risk check to run with the verification.
    public struct SimSwap: Codable, Sendable, Equatable {
        public var maxAgeHours: Int?
        public var action: String?
        public init(maxAgeHours: Int? = nil, action: String? = nil) {
            self.maxAgeHours = maxAgeHours
            self.action = action
        }
        enum CodingKeys: String, CodingKey {
            case maxAgeHours = "max_age_hours", action
        }
    }

    public var phoneNumber: String
    public var workflow: [Step]?
    public var codeLength: Int?
    public var channelTimeout: Int?
    public var brand: String?
    public var locale: String?
    public var clientRef: String?
    public var simSwap: SimSwap?

    public init(
        phoneNumber: String, workflow: [Channel]? = nil, codeLength: Int? = nil,
        channelTimeout: Int? = nil, brand: String? = nil, locale: String? = nil,
        clientRef: String? = nil, simSwap: SimSwap? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.workflow = workflow?.map(Step.init(channel:))
        self.codeLength = codeLength
        self.channelTimeout = channelTimeout
        self.brand = brand
        self.locale = locale
        self.clientRef = clientRef
        self.simSwap = simSwap
    }

    enum CodingKeys: String, CodingKey {
        case phoneNumber = "phone_number", workflow, codeLength = "code_length"
        case channelTimeout = "channel_timeout", brand, locale
        case clientRef = "client_ref", simSwap = "sim_swap"
    }
}

extension StartVerificationRequest: CustomStringConvertible {
    /// Keeps only the country-code digits and the last 4 digits of the number,
    /// so printing a request never logs a full number.
    public var description: String {
        let digits = phoneNumber.filter(\.isNumber)
        let masked = digits.count > 6 ? "+\(digits.prefix(2))•••••\(digits.suffix(4))" : "+•••"
        return "StartVerificationRequest(\(masked), workflow: \(workflow?.map(\.channel.rawValue) ?? ["default"]))"
    }
}
