import Foundation

/// When a provider's circuit opens and for how long: `TACIT_PROVIDER_BREAKER_FAILURES`
/// transient refusals in a row (default 5), then `TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS`
/// (default 30) before one trial send. The same for every provider.
public struct ProviderBreakerSettings: Sendable, Equatable {
    public static let failuresSetting = "TACIT_PROVIDER_BREAKER_FAILURES"
    public static let cooldownSetting = "TACIT_PROVIDER_BREAKER_COOLDOWN_SECONDS"

    /// Consecutive transient refusals that open the circuit; at least 1.
    public var failures: Int
    /// Seconds an open circuit waits before its trial send; more than 0.
    public var cooldown: TimeInterval

    public init(failures: Int = 5, cooldown: TimeInterval = 30) {
        self.failures = failures
        self.cooldown = cooldown
    }

    /// Reads both settings, keeping the defaults for those unset.
    public init(_ settings: ProviderSettings) throws(ProviderSetupError) {
        self.init()
        if let text = settings.value(Self.failuresSetting) {
            guard let value = Int(text), value >= 1 else {
                throw ProviderSetupError(setting: Self.failuresSetting, problem: "must be a whole number of at least 1")
            }
            failures = value
        }
        if let text = settings.value(Self.cooldownSetting) {
            guard let value = TimeInterval(text), value.isFinite, value > 0 else {
                throw ProviderSetupError(setting: Self.cooldownSetting, problem: "must be a number of seconds above 0")
            }
            cooldown = value
        }
    }
}
