import Foundation
import TacitCore
import TacitProviderKit

/// Reads tru.ID's answers. Errors are RFC 7807 bodies whose `type` ends in a slug
/// (`…#mno_not_supported`); only slugs and fields Tacit knows are acted on, and nothing
/// of a body (which may quote the number) goes further.
enum TruIDAnswer {
    /// The create's answer: the check (its id, and the URL the device opens), or why there is none.
    static func created(_ response: OutboundResponse) -> SilentBeginResult {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        if response.status == 201 || response.status == 200 {
            guard let id = object["check_id"]?.stringValue, TruIDRequest.isCheckId(id),
                  let url = object["_links"]?.objectValue?["check_url"]?.objectValue?["href"]?.stringValue,
                  let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? "") else {
                return .failed(.unavailable, events: [])
            }
            let challenge = SilentChallenge(checkURL: url, provider: TruIDProvider.name, reference: id)
                .priced(amount(object["charge_amount"]), currency: object["charge_currency"]?.stringValue)
            return .issuedAtProvider(challenge, events: [])
        }
        // A number tru.ID can't check (its operator is not reachable, its country not served) is no coverage.
        if [400, 412, 501].contains(response.status),
           ["mno_not_supported", "mno_redirect_unsupported"].contains(slug(object)) {
            return .failed(.noCoverage, events: [])
        }
        return .failed(.unavailable, events: [])
    }

    /// The PATCH's answer: the verdict on a completed check; nil when tru.ID gave none.
    /// `windowMinutes` is the SIM-change window the check was created with (nil: none was
    /// asked, and tru.ID's own 7 days apply).
    static func verdict(_ response: OutboundResponse, windowMinutes: Int? = nil) -> SilentProviderVerdict? {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        guard response.status == 200 else {
            return slug(object) == "not_mobile_ip" ? SilentProviderVerdict(result: .notCellular) : nil
        }
        switch object["status"]?.stringValue {
        case "COMPLETED":
            guard case .bool(let match)? = object["match"] else { return nil }
            let window = windowMinutes ?? TruIDRequest.defaultPeriod
            return SilentProviderVerdict(result: match ? .match : .noMatch,
                                         simChanged: simChanged(object, windowMinutes: window),
                                         simChangeWindowMinutes: window)
        case "EXPIRED":
            return SilentProviderVerdict(result: .expired)
        case "ERROR":
            let code = object["error_code"]?.stringValue
            return code == "not_mobile_ip" || code == "ip_mismatch" ? SilentProviderVerdict(result: .notCellular) : nil
        default:
            return nil
        }
    }

    /// Whether the SIM changed within `windowMinutes`. `no_sim_change` answers for the check's
    /// `period`, so it counts only when tru.ID's `no_sim_change_period`, if given, is that
    /// window; `sim_change_within` (the bucket, in minutes, the latest change falls in) says
    /// "changed" when its bucket ends inside the window. A bucket reaching past the window,
    /// with no `no_sim_change` for the window, can't tell: nil.
    static func simChanged(_ object: [String: JSONValue], windowMinutes: Int) -> Bool? {
        var changed: Bool?
        let period = object["no_sim_change_period"]?.numberValue.map { Int($0) }
        if period == nil || period == windowMinutes, case .bool(let unchanged)? = object["no_sim_change"] {
            changed = !unchanged
        }
        if let within = object["sim_change_within"]?.numberValue, Int(within) <= windowMinutes { changed = true }
        return changed
    }

    /// `charge_amount` as a decimal string: tru.ID writes it as a JSON number (`1`, `0.5`) in the
    /// units of `charge_currency` (its own credits, `API`, or a currency). A number that is not a
    /// plain decimal of up to eight places is no price.
    static func amount(_ value: JSONValue?) -> String? {
        if let text = value?.stringValue { return text }
        guard let number = value?.numberValue, number.isFinite, number >= 0, number < 1e12 else { return nil }
        let scaled = (number * 100_000_000).rounded()
        guard abs(scaled - number * 100_000_000) < 1e-3 else { return nil }
        let whole = Int64(number.rounded(.down))
        let fraction = Int64(scaled) - whole * 100_000_000
        guard fraction > 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 8 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// `https://developer.tru.id/docs/reference/api-errors#mno_not_supported` → `mno_not_supported`.
    static func slug(_ object: [String: JSONValue]) -> String? {
        guard let type = object["type"]?.stringValue, let hash = type.lastIndex(of: "#") else { return nil }
        return String(type[type.index(after: hash)...])
    }
}
