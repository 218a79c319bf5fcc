import Foundation

/// The raw provider settings `tacit serve` was given: every `TACIT_ROUTE_*`, `TACIT_PROVIDER_*` and
/// `TACIT_<PROVIDER>_*` value by its variable name, from the environment or the config
/// file. Each provider target reads its own names from here, so a new provider needs
/// no new field in the server's configuration.
public struct ProviderSettings: Sendable, Equatable {
    /// Prefixes every server keeps: the routes and the settings shared by all providers.
    public static let sharedPrefixes = ["TACIT_ROUTE_", "TACIT_PROVIDER_"]

    /// Every value kept, by its variable's name.
    public var values: [String: String]

    /// Settings holding `values` as given.

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// Keeps the provider variables among `variables`: the shared ones and those under each of
    /// `providerPrefixes` (`TACIT_<PROVIDER>_`, which the composition root lists for the providers it builds).
    public static func collect(from variables: [String: String], providerPrefixes: [String]) -> [String: String] {
        let prefixes = sharedPrefixes + providerPrefixes
        return variables.filter { name, _ in prefixes.contains { name.hasPrefix($0) } }
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
