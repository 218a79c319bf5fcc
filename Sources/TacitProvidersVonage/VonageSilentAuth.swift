import Foundation
import TacitCore
import TacitProviderKit

/// Verify v2's silent authentication behind both silent ports. `begin` starts a request
/// whose one step is `silent_auth` and hands the device Verify's `check_url`; the device
/// opens it over mobile data, follows the carrier's redirects and ends at Verify with
/// `{request_id, code}`, whose id is Verify's. Tacit then checks that code against the
/// request it started (the id it recorded, never the one the device shows), and Verify's
/// answer is the verdict. Verify allows one attempt at a silent code.
struct VonageSilentAuth: SilentAuthProvider, SilentProviderCheck {
    let settings: VonageVerifySettings
    let http: any OutboundHTTPClient
    let clock: any TacitClock

    var providerName: String { VonageProvider.name }

    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        guard let call = VonageVerifyRequest.start(settings, request: request, now: clock.now()),
              let response = try? await http.send(call) else { return .failed(.unavailable, events: []) }
        return VonageVerifyAnswer.started(response)
    }

    func verdict(for submission: SilentSubmission) async -> SilentProviderVerdict? {
        guard let code = submission.deviceCode else { return nil }
        // A code that is not Verify's shape can't be the one Verify gave: a wrong code, and
        // Verify's one attempt is not spent on it.
        guard VonageVerifyRequest.isCode(code) else { return SilentProviderVerdict(result: .wrongCode) }
        guard let call = VonageVerifyRequest.check(settings, requestId: submission.reference, code: code,
                                                   now: clock.now()),
              let response = try? await http.send(call) else { return nil }
        return VonageVerifyAnswer.checked(response, requestId: submission.reference)
    }
}
