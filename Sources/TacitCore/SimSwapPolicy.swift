/// What to do when the operator says the SIM changed recently.
public struct SimSwapPolicy: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable { case flag, block }
    /// A SIM change within this many hours counts as a swap (1–2400, as network SIM Swap APIs take it).
    public var maxAgeHours: Int
    public var action: Action

    public init(maxAgeHours: Int = 240, action: Action = .flag) {
        self.maxAgeHours = maxAgeHours
        self.action = action
    }
}

/// Risk signals gathered while verifying.
public struct Risk: Codable, Sendable, Equatable {
    /// nil until the operator has been asked.
    public var simSwapped: Bool?
    public init(simSwapped: Bool? = nil) { self.simSwapped = simSwapped }
}
