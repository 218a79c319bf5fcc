import Foundation
import TacitCore

/// The silent-auth provider the runner drives: it asks the operator (the wrapped
/// provider) for coverage and a gateway check, then hands the device a `check_url` on
/// this server instead, so every hop passes Tacit first: single-use, bound to its
/// verification and step, and dead at the step's deadline.
struct CheckURLIssuer: SilentAuthProvider {
    let network: any SilentAuthProvider
    let keys: SilentKeys
    /// Where check URLs live on this server, before the sealed token.
    static let path = "/v1/silent/checks/"

    /// The one callback every provider check is registered with, fixed here rather than
    /// carried by any link.
    var callbackURL: String { keys.baseURL + Self.callbackPath }
    static let callbackPath = "/v1/silent/callback"

    var providerName: String { network.providerName }

    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        var request = request
        request.callbackURL = callbackURL
        let (issuer, answer) = await Self.begin(network, request)
        switch answer {
        case .failed(let failure, let events):
            return .failed(failure, events: events)
        case .issuedAtProvider(let challenge, let events):
            // The device ends at the provider, which binds its own single-use check; no
            // verdict comes back through Tacit, so there is nothing of Tacit's to wrap it in.
            return .issuedAtProvider(challenge, events: events)
        case .issued(let operatorURL, let events):
            let token = CheckToken(verificationId: request.verificationId, step: request.step,
                                   expiresAt: request.expiresAt, operatorURL: operatorURL, provider: issuer)
            // A cipher that fails here fails this step, as a provider outage would, not the process.
            guard let sealed = try? token.seal(with: keys.checkCipher) else {
                return .failed(.unavailable, events: events)
            }
            let url = keys.baseURL + Self.path + sealed
            return .issued(checkURL: url,
                           events: events + [SilentNotes.issued(expiresAt: request.expiresAt, provider: issuer)])
        }
    }

    /// The answer, and the provider that gave it: the router names the one of its
    /// providers that issued the check, so the verdict goes back to that provider's reader.
    private static func begin(_ network: any SilentAuthProvider,
                              _ request: SilentCheckRequest) async -> (String, SilentBeginResult) {
        guard let router = network as? SilentProviderRouter else {
            return (network.providerName, await network.begin(request))
        }
        let (issuer, answer) = await router.beginNamed(request)
        return (issuer ?? router.providerName, answer)
    }
}
