import Foundation
import TacitCore

/// Reads the Messages and Voice APIs' answers: 202 `{"message_uuid"}` for a message, 201
/// `{"uuid", "status", …}` for a call, or an RFC 7807 problem whose `type` URL ends in
/// Vonage's error code (`…/api-errors/messages#1050`). The problem's `detail` can quote the
/// number, so only the code and the HTTP status are kept, with Tacit's own words.
enum VonageAPIAnswer {
    /// The Messages API errors about the number itself: no provider would do better.
    static let permanent: [String: (reason: String, words: String)] = [
        "1040": ("invalid_number", "Vonage does not recognise the number's prefix"),
        "1050": ("number_blocked", "the number is barred"),
    ]

    static func attempt(_ response: OutboundResponse, idField: String) -> DeliveryAttempt {
        let object = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body))) ?? [:]
        if (200..<300).contains(response.status) {
            guard case .string(let id)? = object[idField], VonageAnswer.isMessageId(id) else {
                return refused(.transient, reason: "provider_error", code: nil,
                               detail: "an answer without a \(idField)")
            }
            return .accepted(by: VonageProvider.name, messageId: id)
        }
        let code = errorCode(object["type"])
        if let code, let known = permanent[code] {
            return refused(.permanent, reason: known.reason, code: code, detail: known.words)
        }
        let reason = switch response.status {
        case 401, 403: "provider_credentials"
        case 402: "provider_quota"
        case 429: "provider_throttled"
        default: "provider_error"
        }
        // Anything but the number's own fault (an outage, throttling, the account) may pass elsewhere.
        return refused(.transient, reason: reason, code: code, detail: "HTTP \(response.status)")
    }

    /// No HTTP answer at all (refused, timed out): another provider may do better.
    static func attempt(_ error: OutboundHTTPError) -> DeliveryAttempt {
        refused(.transient, reason: "provider_unreachable", code: nil, detail: "no answer (\(error.code))")
    }

    static func refused(
        _ refusal: DeliveryAttempt.Refusal, reason: String, code: String?, detail: String
    ) -> DeliveryAttempt {
        DeliveryAttempt(provider: VonageProvider.name, refusal: refusal, reason: reason, errorCode: code,
                        detail: detail)
    }

    /// The digits after the `type` URL's `#`, at most six.
    static func errorCode(_ type: JSONValue?) -> String? {
        guard case .string(let url)? = type, let mark = url.lastIndex(of: "#") else { return nil }
        let code = url[url.index(after: mark)...]
        return (1...6).contains(code.count) && code.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(code) : nil
    }
}
