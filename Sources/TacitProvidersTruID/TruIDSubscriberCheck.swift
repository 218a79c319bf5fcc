import Foundation
import TacitCore
import TacitProviderKit

/// SubscriberCheck v0.2 behind both silent ports. `begin` creates a check for the number
/// and hands the device tru.ID's `check_url`; the device opens it over mobile data and
/// ends at tru.ID with `{check_id, code}`. Tacit then `PATCH`es that code onto the check
/// it created (the id it recorded, never the one the device shows), and tru.ID answers
/// `match`, `no_sim_change` over the `period` the check was created with (the verification's
/// SIM-swap window) and `sim_change_within`.
struct TruIDSubscriberCheck: SilentAuthProvider, SilentProviderCheck {
    let settings: TruIDSettings
    let http: any OutboundHTTPClient
    let tokens: TruIDTokens

    var providerName: String { TruIDProvider.name }

    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        guard let response = await authorized({
            TruIDRequest.create(settings, token: $0, phoneNumber: request.phoneNumber,
                                simSwapMaxAgeHours: request.simSwapMaxAgeHours)
        }) else {
            return .failed(.unavailable, events: [])
        }
        return TruIDAnswer.created(response)
    }

    func verdict(for submission: SilentSubmission) async -> SilentProviderVerdict? {
        guard let code = submission.deviceCode else { return nil }
        let response = await authorized {
            TruIDRequest.patch(settings, token: $0, checkId: submission.reference, code: code)
        }
        let window = submission.simSwapMaxAgeHours.map(TruIDRequest.period(hours:))
        return response.flatMap { TruIDAnswer.verdict($0, windowMinutes: window) }
    }

    /// Sends the request `make` builds with a token; a 401 discards the token and tries
    /// once more with a fresh one. nil when no answer came.
    private func authorized(_ make: (String) -> OutboundRequest?) async -> OutboundResponse? {
        for _ in 0..<2 {
            guard let token = await tokens.token(), let request = make(token),
                  let response = try? await http.send(request) else { return nil }
            guard response.status == 401 else { return response }
            await tokens.discard()
        }
        return nil
    }
}
