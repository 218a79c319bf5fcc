import Foundation
import TacitCore
import TacitProviderKit

/// One CAMARA operator behind the server's ports: Number Verification as the silent
/// provider and its verdict reader, SIM Swap as the SIM-swap checker, sharing the
/// issuer's discovered endpoints and one token client.
public struct CamaraProvider: Sendable {
    public let silentAuth: CamaraNumberVerification
    public let verdicts: CamaraVerdictReader
    public let simSwap: CamaraSimSwap

    public init(settings: CamaraSettings, http: any OutboundHTTPClient, clock: any TacitClock) {
        let discovery = CamaraDiscovery(issuer: settings.issuer, http: http, clock: clock)
        let tokens = CamaraTokenClient(settings: settings, http: http, clock: clock)
        silentAuth = CamaraNumberVerification(settings: settings, discovery: discovery)
        verdicts = CamaraVerdictReader(settings: settings, discovery: discovery, tokens: tokens,
                                       verify: CamaraVerifyClient(settings: settings, http: http))
        simSwap = CamaraSimSwap(settings: settings, discovery: discovery,
                                flow: CamaraBackchannelFlow(tokens: tokens, clock: clock),
                                cache: CamaraTokenCache(clock: clock), http: http)
    }

    /// The provider `settings` configure, nil when no CAMARA setting is given; throws
    /// naming the first setting that is missing or wrong.
    public static func configured(_ settings: ProviderSettings, publicURL: String?, http: any OutboundHTTPClient,
                                  clock: any TacitClock) throws(ProviderSetupError) -> CamaraProvider? {
        guard let camara = try CamaraSettings(settings, publicURL: publicURL) else { return nil }
        return CamaraProvider(settings: camara, http: http, clock: clock)
    }
}
