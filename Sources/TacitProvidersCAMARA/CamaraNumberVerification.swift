import Foundation
import TacitCore

/// CAMARA Number Verification as the engine's silent provider: `begin` hands the device
/// the operator's authorization URL as its check, and the verdict comes back through
/// Tacit's callback, read by ``CamaraVerdictReader``. Number Verification has no coverage
/// query, so every number is tried; an operator that can't place the device answers the
/// callback with an error and the step moves on.
public struct CamaraNumberVerification: SilentAuthProvider {
    let settings: CamaraSettings
    let discovery: CamaraDiscovery

    public var providerName: String { "camara" }

    public func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        guard request.callbackURL == settings.redirectURI else {
            // The device could only be sent back to a callback the operator does not know.
            return .failed(.unavailable, events: [CamaraNotes.callbackUnregistered])
        }
        guard let metadata = await discovery.metadata() else {
            return .failed(.carrierError, events: [CamaraNotes.discoveryFailed])
        }
        let nonce = CamaraAuthorization.nonce()
        let challenge = CamaraAuthorization.challenge(
            verifier: CamaraAuthorization.verifier(nonce: nonce, key: settings.flowKey))
        let url = CamaraAuthorization.url(endpoint: metadata.authorizationEndpoint, clientId: settings.clientId,
                                          phoneNumber: request.phoneNumber, nonce: nonce, challenge: challenge)
        return .issued(checkURL: url, events: [CamaraNotes.authorizationPrepared])
    }
}
