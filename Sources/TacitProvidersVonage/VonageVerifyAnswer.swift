import Foundation
import TacitCore
import TacitProviderKit

/// Reads Verify v2's answers about a silent check. Errors are RFC 7807 bodies; only the
/// status and the fields Tacit acts on are read, and nothing of a body (whose `detail`
/// may quote the number) goes further.
enum VonageVerifyAnswer {
    /// The start's answer: Verify's request id and the check URL for the device, or why
    /// there is none.
    static func started(_ response: OutboundResponse) -> SilentBeginResult {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        switch response.status {
        case 200, 202:
            guard let id = object["request_id"]?.stringValue, VonageVerifyRequest.isRequestId(id) else {
                return .failed(.unavailable, events: [])
            }
            // With coverage_check, Verify gives a check URL only for a network it can check.
            guard let url = object["check_url"]?.stringValue else { return .failed(.noCoverage, events: []) }
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? "") else {
                return .failed(.unavailable, events: [])
            }
            return .issuedAtProvider(SilentChallenge(checkURL: url, provider: VonageProvider.name, reference: id),
                                     events: [])
        // 412: the number's network is not one Verify can check silently; 422: Verify
        // won't take the number at all. Either way another provider may.
        case 412, 422: return .failed(.noCoverage, events: [])
        // 401, 402, 409 (a verification of this number already in flight), 429 and 5xx.
        default: return .failed(.unavailable, events: [])
        }
    }

    /// The code check's answer: `completed` is the carrier's match; 400 ("Invalid Code": the
    /// code does not match) is a wrong code, not a verdict on the SIM, since Verify gives its
    /// SIM verdict at the check URL and never as a code; 404 and 410 (the request is gone, or its one attempt spent)
    /// are an expired check; anything else gives no verdict, which Tacit treats as an outage.
    static func checked(_ response: OutboundResponse, requestId: String) -> SilentProviderVerdict? {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        switch response.status {
        case 200:
            if let answered = object["request_id"]?.stringValue, answered != requestId { return nil }
            return object["status"]?.stringValue == "completed" ? SilentProviderVerdict(result: .match) : nil
        case 400: return SilentProviderVerdict(result: .wrongCode)
        case 404, 410: return SilentProviderVerdict(result: .expired)
        default: return nil
        }
    }
}
