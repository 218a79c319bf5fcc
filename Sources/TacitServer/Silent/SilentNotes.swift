import Foundation
import TacitCore

/// Timeline events of the check_url round trip. The URL's secret and the silent code
/// never appear: the URL only as `.secret`, the code not at all.
enum SilentNotes {
    static func issued(expiresAt: Date, provider: String) -> EventDraft {
        EventDraft("silent_auth:check_url_issued", channel: .silentAuth,
                   note: "Tacit issued a single-use check link for the device to open over its mobile data connection."
                         + " It is bound to this verification and stops working when the step ends;"
                         + " \(provider) will send its answer only to Tacit's own callback.",
                   data: ["check_url": .secret, "expires_at": .date(expiresAt), "provider": .text(provider)])
    }

    static func opened(_ provider: String) -> EventDraft {
        EventDraft("silent_auth:check_url_opened", channel: .silentAuth,
                   note: "The device opened the check link. Tacit marked it used, tied the answer to this device,"
                         + " and sent it on to \(provider)'s cellular gateway.",
                   data: ["provider": .text(provider)])
    }

    static func openedLate(_ provider: String) -> EventDraft {
        EventDraft("silent_auth:check_url_opened", channel: .silentAuth, outcome: .failure,
                   note: "The device opened the check link after it expired, so Tacit did not send it on to"
                         + " \(provider).",
                   data: ["provider": .text(provider)])
    }

    static func openedAgain(_ provider: String) -> EventDraft {
        EventDraft("silent_auth:check_url_opened", channel: .silentAuth, outcome: .failure,
                   note: "The check link was opened again after its first use. A link works once,"
                         + " so this looks like a replay.",
                   data: ["provider": .text(provider)])
    }

    static let fetched = EventDraft(
        "silent_auth:check_url_fetched", channel: .silentAuth, source: .operator,
        note: "The operator's cellular gateway received the device's request and looked at the network it came from.")

    static func cellularPath(_ cellular: Bool) -> EventDraft {
        EventDraft("silent_auth:cellular_path", channel: .silentAuth, source: .operator,
                   outcome: cellular ? .success : .failure,
                   note: cellular
                       ? "The request came over the operator's mobile data network, so the operator can see which SIM"
                         + " made it."
                       : "The request did not come over the operator's mobile data network (Wi-Fi or another network),"
                         + " so the operator can't tell which SIM made it.",
                   data: ["cellular": .bool(cellular)])
    }

    static func simMatch(_ matches: Bool) -> EventDraft {
        EventDraft("silent_auth:sim_match", channel: .silentAuth, source: .operator,
                   outcome: matches ? .success : .failure,
                   note: matches
                       ? "The operator confirmed that the SIM in the device holds this phone number and sent back a"
                         + " signed answer."
                       : "The operator says the SIM in the device holds a different phone number.",
                   data: ["match": .bool(matches)])
    }

    static let operatorReplay = EventDraft(
        "silent_auth:operator_replay", channel: .silentAuth, source: .operator, outcome: .failure,
        note: "The operator's gateway saw its single-use check a second time and refused it.")

    static let answerLate = EventDraft(
        "silent_auth:operator_answer", channel: .silentAuth, source: .operator, outcome: .failure,
        note: "The operator's answer reached Tacit after the check had expired.")

    static func verdict(_ result: SilentVerdict.Result, provider: String) -> EventDraft {
        EventDraft("silent_auth:provider_verdict", channel: .silentAuth, source: .provider,
                   outcome: result == .match ? .success : .failure,
                   note: "\(provider)'s answer reached Tacit's callback: \(result.spoken).",
                   data: ["provider": .text(provider), "result": .text(result.wireName)])
    }

    static func integrityChecked(_ provider: String) -> EventDraft {
        EventDraft("silent_auth:integrity_checked", channel: .silentAuth, outcome: .success,
                   note: "Tacit checked the answer: it is \(provider)'s, about the check this verification opened,"
                         + " and it came back from the device that opened the check link.",
                   data: ["provider": .text(provider)])
    }

    static let codeIssued = EventDraft(
        "silent_auth:code_issued", channel: .silentAuth, outcome: .success,
        note: "Tacit verified the operator's signed answer and handed the device a single-use code to submit."
              + " Only a keyed hash of the code is stored.")
    static let codeHeld = EventDraft(
        "silent_auth:code_issued", channel: .silentAuth, outcome: .success,
        note: "Tacit verified the operator's signed answer; the app's backend completes the check next,"
              + " so no code went to the device. Only a keyed hash is stored.")
}
