import Foundation
import TacitCore

/// The timeline's silent-provider hops: which provider issued the check, which fell
/// through and why, which was skipped for its open circuit, and what a provider said
/// when Tacit asked it for the verdict. Built from names and typed reasons only, so no
/// number, code or token can reach them.
enum SilentHopNotes {
    static func coverage(_ provider: String, covered: Bool) -> EventDraft {
        EventDraft("silent_auth:coverage_checked", channel: .silentAuth, source: .provider,
                   outcome: covered ? .success : .failure,
                   note: covered
                       ? "\(provider) can check this number's SIM over its mobile network."
                       : "\(provider) can't check this number's SIM: its mobile network is not one \(provider)"
                         + " reaches.",
                   data: ["provider": .text(provider), "covered": .bool(covered)])
    }

    static func issued(_ provider: String) -> EventDraft {
        EventDraft("provider:challenge_issued", channel: .silentAuth, source: .provider, outcome: .success,
                   note: "\(provider) covers this number and issued a silent check for the device to open over its"
                         + " mobile data connection.",
                   data: ["provider": .text(provider)])
    }

    static func fellThrough(_ provider: String, failure: SilentFailure, next: String?) -> EventDraft {
        var data: [String: EventValue] = ["provider": .text(provider), "reason": .text(failure.rawValue)]
        if let next { data["next_provider"] = .text(next) }
        let then = next.map { " Trying \($0) in the same step." }
            ?? " No other silent provider is left, so the workflow moves on."
        return EventDraft(next == nil ? "provider:failed" : "provider:failed_over", channel: .silentAuth,
                          source: .provider, outcome: .failure,
                          note: "\(provider) could not start a silent check: \(failure.spoken).\(then)", data: data)
    }

    static func skipped(_ provider: String, next: String?) -> EventDraft {
        var data: [String: EventValue] = ["provider": .text(provider), "reason": .text(ProviderCircuit.openReason)]
        if let next { data["next_provider"] = .text(next) }
        let then = next.map { " Trying \($0) in the same step." }
            ?? " No other silent provider is left, so the workflow moves on."
        return EventDraft("provider:skipped", channel: .silentAuth, source: .provider, outcome: .failure,
                          note: "\(provider) was skipped because its circuit is open after repeated failures.\(then)",
                          data: data)
    }

    static func verdict(_ provider: String, _ verdict: SilentProviderVerdict?) -> EventDraft {
        guard let verdict else {
            return EventDraft("silent_auth:provider_verdict", channel: .silentAuth, source: .provider,
                              outcome: .failure,
                              note: "Tacit asked \(provider) for its verdict on the check and got no usable answer.",
                              data: ["provider": .text(provider), "result": .text("unavailable")])
        }
        var data: [String: EventValue] = ["provider": .text(provider), "result": .text(verdict.result.wireName)]
        if let changed = verdict.simChanged { data["sim_changed"] = .bool(changed) }
        var window = ""
        if let minutes = verdict.simChangeWindowMinutes {
            data["sim_change_window_minutes"] = .int(minutes)
            window = " It looked for a SIM change within the last \(minutes) minutes"
                + (verdict.simChanged.map { $0 ? " and found one." : " and found none." } ?? " and could not tell.")
        }
        return EventDraft("silent_auth:provider_verdict", channel: .silentAuth, source: .provider,
                          outcome: verdict.result == .match ? .success : .failure,
                          note: "Tacit asked \(provider) for its verdict on the check it issued:"
                                + " \(verdict.result.spoken).\(window)", data: data)
    }
}

extension SilentFailure {
    var spoken: String {
        switch self {
        case .noCoverage: "it does not cover this number"
        case .unavailable: "it did not answer or could not be reached"
        case .carrierError: "the mobile operator answered with an error"
        case .rejected: "the SIM does not match"
        case .deviceNotCellular: "the device was not on mobile data"
        case .replayed: "the check was used before"
        case .expired: "the check expired"
        case .integrity: "its answer failed Tacit's checks"
        case .wrongCode: "it refused the code, which allows no other attempt"
        }
    }
}

extension SilentVerdict.Result {
    var spoken: String {
        switch self {
        case .match: "the SIM in the device holds this number"
        case .noMatch: "the SIM in the device holds another number"
        case .notCellular: "the device did not come over the mobile data network"
        case .replayed: "its check had been used before"
        case .expired: "its check had expired"
        case .wrongCode: "the code is not the one its check gave (a wrong code, not a verdict on the SIM)"
        }
    }
}
