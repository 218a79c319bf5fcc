import Foundation
import TacitCore
import TacitOperator
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

    /// In `--dev`, CAMARA aimed at the server's own virtual operator (`TACIT_CAMARA_ISSUER`
    /// is `{TACIT_PUBLIC_URL}/operator`): the operator registers the CAMARA client (its RSA
    /// key's public half and Tacit's callback), and `+990` checks go through the CAMARA
    /// adapter and the operator's code flow, as they would against a real operator. SIM
    /// Swap stays the operator's own, which offers no CIBA. docs/operator.md.
    static func camaraOnVirtualOperator(_ configuration: ServerConfiguration,
                                        dependencies: inout TacitApplication.Dependencies) {
        guard configuration.dev, let network = dependencies.silentAuth as? VirtualOperator,
              let settings = try? CamaraSettings(configuration.providers, publicURL: configuration.publicURL),
              let publicURL = configuration.publicURL,
              settings.issuer + "/" == publicURL + (publicURL.hasSuffix("/") ? "" : "/") + "operator/",
              let publicKey = settings.signingKey.rsaPublicKey else { return }
        network.register(OperatorClient(clientId: settings.clientId, publicKey: publicKey,
                                        redirectURIs: [settings.redirectURI]))
        let camara = CamaraProvider(settings: settings, http: dependencies.httpClient, clock: dependencies.clock)
        dependencies.silentVerdictReaders[camara.silentAuth.providerName] = camara.verdicts
        dependencies.silentAuth = camara.silentAuth
        dependencies.simSwap = network
    }
}

