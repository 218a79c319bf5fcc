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
    /// is `{TACIT_PUBLIC_URL}/operator`): `+990` checks go through the CAMARA adapter and the
    /// operator's code flow, as they would against a real operator, and the client to
    /// register with the operator is returned (its RSA key's public half and Tacit's
    /// callback). SIM Swap is left to the operator's own, which offers no CIBA. Called before
    /// the dev providers are wired, which keep the silent port set here. docs/operator.md.
    static func camaraAtDevOperator(_ configuration: ServerConfiguration,
                                        dependencies: inout TacitApplication.Dependencies) -> [OperatorClient] {
        guard configuration.dev, let publicURL = configuration.publicURL,
              let settings = try? CamaraSettings(configuration.providers, publicURL: publicURL),
              settings.issuer + "/" == publicURL + (publicURL.hasSuffix("/") ? "" : "/") + "operator/",
              let publicKey = settings.signingKey.rsaPublicKey else { return [] }
        let camara = CamaraProvider(settings: settings, http: dependencies.httpClient, clock: dependencies.clock)
        dependencies.silentVerdictReaders[camara.silentAuth.providerName] = camara.verdicts
        dependencies.silentAuth = camara.silentAuth
        dependencies.simSwap = nil
        return [OperatorClient(clientId: settings.clientId, publicKey: publicKey, redirectURIs: [settings.redirectURI])]
    }
}
