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
            return .issuedAtProvider(SilentChallenge(checkURL: url, provider: TruIDProvider.name, reference: id),
                                     events: [])
        }
        // A number tru.ID can't check (its operator is not reachable, its country not served) is no coverage.
        if [400, 412, 501].contains(response.status),
           ["mno_not_supported", "mno_redirect_unsupported"].contains(slug(object)) {
            return .failed(.noCoverage, events: [])
        }
        return .failed(.unavailable, events: [])
    }

    /// The PATCH's answer: the verdict on a completed check; nil when tru.ID gave none.
    static func verdict(_ response: OutboundResponse) -> SilentProviderVerdict? {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        guard response.status == 200 else {
            return slug(object) == "not_mobile_ip" ? SilentProviderVerdict(result: .notCellular) : nil
        }
        switch object["status"]?.stringValue {
        case "COMPLETED":
            guard case .bool(let match)? = object["match"] else { return nil }
            var simChanged: Bool?
            if case .bool(let unchanged)? = object["no_sim_change"] { simChanged = !unchanged }
            return SilentProviderVerdict(result: match ? .match : .noMatch, simChanged: simChanged)
        case "EXPIRED":
            return SilentProviderVerdict(result: .expired)
        case "ERROR":
            let code = object["error_code"]?.stringValue
            return code == "not_mobile_ip" || code == "ip_mismatch" ? SilentProviderVerdict(result: .notCellular) : nil
        default:
            return nil
        }
    }

    /// `https://developer.tru.id/docs/reference/api-errors#mno_not_supported` → `mno_not_supported`.
    static func slug(_ object: [String: JSONValue]) -> String? {
        guard let type = object["type"]?.stringValue, let hash = type.lastIndex(of: "#") else { return nil }
        return String(type[type.index(after: hash)...])
    }
}
