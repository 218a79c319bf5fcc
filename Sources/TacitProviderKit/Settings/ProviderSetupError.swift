import Foundation

/// A provider setting `tacit serve` cannot start with: a route naming a provider that is
/// not configured, a missing credential, a malformed value. Its description is the one
/// line printed before exiting 2, and names the setting, never its value.
public struct ProviderSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `TACIT_*` name at fault.
    public var setting: String
    /// What is wrong with it, in words that hold no setting's value.
    public var problem: String

    /// The error for `setting`, with `problem` in words that hold no value.
    public init(setting: String, problem: String) {
        self.setting = setting
        self.problem = problem
    }

    /// `<setting>: <problem>`, the line printed before exiting 2.
    public var description: String { "\(setting): \(problem)" }

    /// A provider that is configured only in part.
    public static func missing(_ setting: String, for provider: String) -> ProviderSetupError {
        ProviderSetupError(setting: setting, problem: "must be set to use \(provider)")
    }
}
