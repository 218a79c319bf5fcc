import Foundation
import TacitCore
import TacitProviderKit

/// Reads the operator's answer at Tacit's callback: the device comes back with `code` and
/// `state`, and only the operator, asked server to server, can say what the code is worth.
/// The code is redeemed once with the flow's PKCE verifier (so a code from another flow
/// fails), the token is spent on one `POST /verify` for the number the flow was begun for,
/// and dropped: Number Verification tokens are single use.
public struct CamaraVerdictReader: SilentVerdictReader {
    let settings: CamaraSettings
    let discovery: CamaraDiscovery
    let tokens: CamaraTokenClient
    let verify: CamaraVerifyClient

    /// OAuth errors with which a `prompt=none` request says the operator could not place
    /// the device on its network (OIDC Core §3.1.2.6): Wi-Fi, another network, no SIM.
    static let unplaced: Set<String> = ["login_required", "interaction_required", "consent_required", "access_denied"]

    public func verdict(for callback: SilentCallback) async -> SilentVerdict? {
        guard let state = callback.query["state"] else { return nil }
        // An error the device brings can only fail its own flow, whose cookie it holds.
        if let error = callback.query["error"] {
            return Self.unplaced.contains(error)
                ? SilentVerdict(result: .notCellular, state: state, session: nil, expires: nil)
                : nil
        }
        guard let code = callback.query["code"], !code.isEmpty,
              let issued = await callback.issuedURL(state), let nonce = CamaraAuthorization.nonce(in: issued),
              let number = await callback.phoneNumber(state), let metadata = await discovery.metadata() else {
            return nil
        }
        let verifier = CamaraAuthorization.verifier(nonce: nonce, key: settings.flowKey)
        // A refused code (spent, expired, another flow's) is not the operator's verdict on this check.
        guard case .token(let token, _) = await tokens.redeem(code: code, verifier: verifier,
                                                              at: metadata.tokenEndpoint) else { return nil }
        switch await verify.verify(phoneNumber: number, token: token) {
        case .verdict(let result): return SilentVerdict(result: result, state: state, session: nil, expires: nil)
        case .malformed:
            await callback.note(state, CamaraNotes.verdictMissing)
            return nil
        case .none: return nil
        }
    }
}
