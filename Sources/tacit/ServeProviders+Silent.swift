import Foundation
import TacitCore
import TacitProvidersCAMARA
import TacitServer

extension ServeProviders {
    /// CAMARA, when configured: its SIM-swap checker and the reader of its verdicts at
    /// Tacit's callback go into `dependencies` (the dev providers keep what is already set,
    /// so with CAMARA configured in `--dev` the virtual operator's verdicts aren't read);
    /// the silent router takes its Number Verification as one of its providers.
    static func camara(_ configuration: ServerConfiguration,
                       dependencies: inout TacitApplication.Dependencies) throws(ProviderSetupError) -> RoutedSilentProvider? {
        guard let camara = try CamaraProvider.configured(configuration.providers, publicURL: configuration.publicURL,
                                                         http: dependencies.httpClient, clock: dependencies.clock) else { return nil }
        dependencies.silentVerdicts = camara.verdicts
        dependencies.simSwap = camara.simSwap
        return RoutedSilentProvider(name: camara.silentAuth.providerName, provider: camara.silentAuth)
    }
}
