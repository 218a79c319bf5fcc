import Foundation
import TacitProvidersCAMARA
import TacitServer

extension ServeProviders {
    /// The configured silent-auth provider, wired as the virtual operator is in dev: the
    /// provider that begins checks, the reader of its verdicts at Tacit's callback and its
    /// SIM-swap checker. Set before the dev providers, which keep what is already set.
    static func silent(_ configuration: ServerConfiguration, into dependencies: inout TacitApplication.Dependencies) throws(ProviderSetupError) {
        guard let camara = try CamaraProvider.configured(configuration.providers, publicURL: configuration.publicURL,
                                                         http: dependencies.httpClient, clock: dependencies.clock) else { return }
        dependencies.silentAuth = camara.silentAuth
        dependencies.silentVerdicts = camara.verdicts
        dependencies.simSwap = camara.simSwap
    }
}
