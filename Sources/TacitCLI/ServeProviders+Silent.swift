import Foundation
import TacitCore
import TacitProvidersCAMARA
import TacitServer

extension ServeProviders {
    /// CAMARA, when configured: its SIM-swap checker goes into `dependencies`, and the
    /// reader of its verdicts at Tacit's callback joins the readers by provider, so that
    /// in `--dev` the virtual operator's checks are still judged by the operator's reader;
    /// the silent router takes its Number Verification as one of its providers.
    static func camara(_ configuration: ServerConfiguration, dependencies: inout TacitApplication.Dependencies)
        throws(ProviderSetupError) -> RoutedSilentProvider? {
        let configured = try CamaraProvider.configured(configuration.providers, publicURL: configuration.publicURL,
                                                       http: dependencies.httpClient, clock: dependencies.clock)
        guard let camara = configured else { return nil }
        dependencies.silentVerdictReaders[camara.silentAuth.providerName] = camara.verdicts
        dependencies.simSwap = camara.simSwap
        return RoutedSilentProvider(name: camara.silentAuth.providerName, provider: camara.silentAuth)
    }
}
