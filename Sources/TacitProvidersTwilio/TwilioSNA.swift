import Foundation
import TacitCore
import TacitProviderKit

/// Twilio Verify's Silent Network Auth behind both silent ports. `begin` creates a
/// Verification with `Channel=sna` and hands the device its `sna.url`, which the device
/// opens over mobile data through the carrier's redirects; the device gets no code.
/// Completion asks Verify with a VerificationCheck for the number alone: `approved` is
/// the carrier's match. The verification's sid is the reference Tacit keeps, so an
/// answer about another verification of the same number is not taken.
struct TwilioSNA: SilentAuthProvider, SilentProviderCheck {
    let settings: TwilioVerifySettings
    let http: any OutboundHTTPClient

    var providerName: String { TwilioProvider.name }

    func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
        guard let call = TwilioVerifyRequest.create(settings, to: request.phoneNumber),
              let response = try? await http.send(call) else { return .failed(.unavailable, events: []) }
        return TwilioVerifyAnswer.created(response)
    }

    func verdict(for submission: SilentSubmission) async -> SilentProviderVerdict? {
        guard let call = TwilioVerifyRequest.check(settings, to: submission.phoneNumber),
              let response = try? await http.send(call) else { return nil }
        return TwilioVerifyAnswer.verdict(response, sid: submission.reference)
    }
}
