import TacitCore
import TacitPhone
import TacitStore

/// What an application's geo permissions make of a start (docs/fraud.md#geo-permissions),
/// judged once, when it starts: the channels its number's country is refused, which the
/// verification keeps so a later step on one is skipped too, and those only watched.
struct GeoRules: Sendable, Equatable {
    /// Channels of the workflow that may not reach the number's country: their steps are skipped.
    var refused: [Channel] = []
    /// Channels of the workflow that would be refused but are in `monitor` mode: recorded only.
    var monitored: [Channel] = []

    /// The judgement of a number of `region` (nil: of no country) on `workflow`'s channels.
    init(_ permissions: [GeoPermission], region: String?, workflow: [Channel]) {
        var seen: Set<Channel> = []
        for channel in workflow where seen.insert(channel).inserted {
            guard let permission = permissions.first(where: { $0.channel == channel }),
                  !permission.allows(region) else { continue }
            switch permission.mode {
            case .enforce: refused.append(channel)
            case .monitor: monitored.append(channel)
            }
        }
    }

    /// Whether any permission judged the start, so a trusted start can say it skipped the rule.
    var applies: Bool { !refused.isEmpty || !monitored.isEmpty }

    /// Whether no step of `workflow` may reach the number: the start is refused.
    func refusesEvery(_ workflow: [Channel]) -> Bool {
        !workflow.isEmpty && workflow.allSatisfy(refused.contains)
    }

    /// Whether the permissions set can judge a start on `workflow` at all: without one for its
    /// channels, a start pays no look-up of its number's country.
    static func restricts(_ permissions: [GeoPermission], _ workflow: [Channel]) -> Bool {
        permissions.contains { permission in workflow.contains(permission.channel) }
    }

    /// The answer to a start no step of which may reach the number's country: 403
    /// `fraud-blocked`, as a refused line type is answered, so every face maps it the same way.
    static func refusal(region: String?) -> APIProblem {
        APIProblem(status: 403, type: "fraud-blocked", title: "Blocked by fraud protection",
                   detail: "The application's geo permissions let no step of the workflow reach numbers of"
                       + " \(region.map { "the country \($0)" } ?? "no country") (rule geo).")
    }

    /// Why a step on `channel` of `verification` is skipped, if it is.
    static func unreachable(_ channel: Channel, in verification: Verification) -> EndReason? {
        verification.geoRefusedChannels.contains(channel) ? .geo : nil
    }

    /// The `fraud:blocked` event before `event` when it is a step the geo permissions skipped:
    /// the rule, the channel and the number's country, never the number; none for any other event.
    /// The country is read again from the number here, once per skipped step only.
    static func blockedEvent(_ event: WorkflowEvent, of verification: Verification) -> [EventDraft] {
        guard case .stepEnded(let channel, _, .geo, _) = event else { return [] }
        let region = (try? PhoneNumberParser().parse(verification.phoneNumber, allowVirtualRange: true))?.region
        return [EventDraft("fraud:blocked", channel: channel, outcome: .failure,
                           note: "The application's geo permissions let \(channel.spokenName) reach no numbers of"
                               + " \(region.map { "the country \($0)" } ?? "no country"), so this step is skipped.",
                           data: ["rule": .text("geo"), "channel": .text(channel.rawValue),
                                  "country": .text(region ?? "none")])]
    }

    /// The `fraud:monitored` event of a channel in `monitor` mode that would have refused the
    /// number's country: the rule, the channel and the country, never the number.
    static func monitoredEvent(_ channel: Channel, region: String?) -> EventDraft {
        let country = region ?? "none"
        return EventDraft("fraud:monitored",
                          note: "The application's geo permissions would have refused \(channel.spokenName) to"
                              + " numbers of \(region.map { "the country \($0)" } ?? "no country"), but they are"
                              + " in monitor mode: the start went on.",
                          data: ["rule": .text("geo"), "channel": .text(channel.rawValue), "country": .text(country)])
    }
}
