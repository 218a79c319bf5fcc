import Foundation
import TacitCore

/// A silent-auth provider as the silent router sees it: the name routes use
/// (`TACIT_ROUTE_SILENT_AUTH=<provider>,<provider>`), how it begins a check, and, for one whose
/// device ends at the provider, how Tacit asks it for the verdict.
public struct RoutedSilentProvider: Sendable {
    /// Lower-case, as in the routes.
    public var name: String
    /// Begins the provider's checks.
    public var provider: any SilentAuthProvider
    /// nil for a provider whose verdict arrives at Tacit's callback (the virtual operator).
    public var check: (any SilentProviderCheck)?

    /// The provider `name`, beginning checks with `provider` and, when given, judged by `check`.
    public init(name: String, provider: any SilentAuthProvider, check: (any SilentProviderCheck)? = nil) {
        self.name = name
        self.provider = provider
        self.check = check
    }
}
