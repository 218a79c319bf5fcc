import Foundation
import TacitCore
import TacitProviderKit

/// Reads Verify's answers about an SNA verification. Only the fields Tacit acts on are
/// read; Twilio's `message` can quote the number and goes nowhere.
enum TwilioVerifyAnswer {
    /// SNA errors that mean the number or its carrier can't be checked silently.
    static let noCoverage: Set<Int> = [60500, 60540, 60541, 60542]
    /// The device reached the SNA URL other than over mobile data.
    static let notCellular: Set<Int> = [60510]

    /// The create's answer: the verification's sid and its `sna.url`, or why there is none.
    static func created(_ response: OutboundResponse) -> SilentBeginResult {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        guard (200..<300).contains(response.status) else {
            let code = object["code"]?.numberValue.map { Int($0) }
            // 60200 (invalid parameter: the number) and the SNA coverage codes mean SNA can't check it.
            if response.status == 400 || code.map({ noCoverage.contains($0) || $0 == 60200 }) == true {
                return .failed(.noCoverage, events: [])
            }
            return .failed(.unavailable, events: [])
        }
        guard let sid = object["sid"]?.stringValue, isVerificationSid(sid),
              let url = object["sna"]?.objectValue?["url"]?.stringValue,
              let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? "") else {
            return .failed(.unavailable, events: [])
        }
        return .issuedAtProvider(SilentChallenge(checkURL: url, provider: TwilioProvider.name, reference: sid),
                                 events: [])
    }

    /// The check's answer: `approved` is a match; nil when Twilio gave no verdict.
    static func verdict(_ response: OutboundResponse, sid: String) -> SilentProviderVerdict? {
        let object = (try? JSONParser.parse(response.body))?.objectValue ?? [:]
        // Twilio forgets a verification once expired, approved or spent: a 404 is no verdict.
        guard (200..<300).contains(response.status) else { return nil }
        if let answered = object["sid"]?.stringValue, answered != sid { return nil }
        let errors = (object["sna_attempts_error_codes"]?.arrayValue ?? []).compactMap(errorCode)
        switch object["status"]?.stringValue {
        case "approved": return SilentProviderVerdict(result: .match)
        case "expired": return SilentProviderVerdict(result: .expired)
        case "pending", "failed", "canceled", "max_attempts_reached":
            if errors.contains(where: notCellular.contains) { return SilentProviderVerdict(result: .notCellular) }
            return SilentProviderVerdict(result: .noMatch)
        default: return nil
        }
    }

    /// An entry of `sna_attempts_error_codes`: `{"attempt_sid": …, "code": 60519}`.
    private static func errorCode(_ value: JSONValue) -> Int? {
        value.objectValue?["code"]?.numberValue.map { Int($0) }
    }

    /// `VE` and 32 hex digits.
    static func isVerificationSid(_ text: String) -> Bool {
        text.count == 34 && text.hasPrefix("VE") && text.dropFirst(2).allSatisfy(\.isHexDigit)
    }
}
