import Foundation

/// The raw provider settings `tacit serve` was given: every `TACIT_ROUTE_*`, `TACIT_PROVIDER_*` and
/// `TACIT_<PROVIDER>_*` value by its variable name, from the environment or the config
/// file. Each provider target reads its own names from here, so a new provider needs
/// no new field in the server's configuration.
public struct ProviderSettings: Sendable, Equatable {
    /// Prefixes of the variables kept here.
    public static let prefixes = ["TACIT_ROUTE_", "TACIT_PROVIDER_", "TACIT_TWILIO_", "TACIT_VONAGE_", "TACIT_SMPP_", "TACIT_TRUID_", "TACIT_CAMARA_"]

    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// Keeps the provider variables among `variables`.
    public static func collect(from variables: [String: String]) -> [String: String] {
        variables.filter { name, _ in prefixes.contains { name.hasPrefix($0) } }
    }

    /// The value of `name`, nil when unset or empty.
    public func value(_ name: String) -> String? {
        guard let value = values[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// The routes among the settings.
    public func routes() throws(ProviderSetupError) -> ProviderRoutes {
        try ProviderRoutes(settings: values.filter { $0.key.hasPrefix(ProviderRoutes.prefix) })
    }
}
