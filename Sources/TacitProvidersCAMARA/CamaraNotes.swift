import Foundation
import TacitCore

/// The timeline events of the CAMARA hops Tacit itself makes. None holds a code, a token
/// or the number in full.
enum CamaraNotes {
    static let authorizationPrepared = EventDraft(
        "silent_auth:provider_challenge", channel: .silentAuth, source: .provider,
        note: "Tacit prepared a CAMARA Number Verification sign-in at the operator: the device will be sent there "
            + "without any prompt, so the operator can recognise it on its mobile network and send it back to "
            + "Tacit's callback.",
        data: ["provider": .text("camara"), "flow": .text("authorization_code")])

    static let discoveryFailed = EventDraft(
        "silent_auth:provider_challenge", channel: .silentAuth, source: .provider, outcome: .failure,
        note: "Tacit could not read the operator's OpenID configuration, so it could not send the device to "
            + "the operator.",
        data: ["provider": .text("camara"), "reason": .text("discovery_failed")])

    static let callbackUnregistered = EventDraft(
        "silent_auth:provider_challenge", channel: .silentAuth, source: .provider, outcome: .failure,
        note: "The check would come back to a callback other than the redirect URI registered with the operator, "
            + "so Tacit did not start it.",
        data: ["provider": .text("camara"), "reason": .text("callback_unregistered")])

    static let verdictMissing = EventDraft(
        "silent_auth:provider_verdict", channel: .silentAuth, source: .provider, outcome: .failure,
        note: "The operator answered Number Verification without saying whether the device holds the number "
            + "(no devicePhoneNumberVerified), so Tacit took no verdict from it and did not complete the check.",
        data: ["provider": .text("camara"), "result": .text("none"), "reason": .text("verdict_missing")])
}
