import Foundation
import TacitCore

/// Reads the SMS API's answer: HTTP 200 whatever happened, with `messages[0].status` "0"
/// and a `message-id` when accepted, or another status and `error-text` when not. Vonage's
/// text can quote the number, so only the status code is kept, with Tacit's own words for it.
enum VonageAnswer {
    static func attempt(_ response: OutboundResponse) -> DeliveryAttempt {
        guard (200..<300).contains(response.status) else {
            // A 5xx is an outage; any other HTTP refusal is about the request or the account.
            return refused(.transient, reason: "provider_error", code: nil, detail: "HTTP \(response.status)")
        }
        guard let first = firstMessage(response.body), case .string(let status)? = first["status"] else {
            return refused(.transient, reason: "provider_error", code: nil,
                           detail: "an answer without a message status")
        }
        guard status == "0" else {
            let code = status.count <= 4 && status.isASCIIDigits && !status.isEmpty ? status : nil
            guard let code, let known = VonageStatusCodes.all[code] else {
                return refused(.transient, reason: "provider_error", code: code, detail: "an unknown status")
            }
            return refused(known.permanent ? .permanent : .transient, reason: known.reason, code: code,
                           detail: known.words)
        }
        guard case .string(let id)? = first["message-id"], isMessageId(id) else {
            return refused(.transient, reason: "provider_error", code: nil, detail: "an answer without a message id")
        }
        var price: String?
        if case .string(let text)? = first["message-price"] { price = text }
        return DeliveryAttempt.accepted(by: VonageProvider.name, messageId: id)
            .priced(price, currency: VonageProvider.priceCurrency)
    }

    /// No HTTP answer at all (refused, timed out): another provider may do better.
    static func attempt(_ error: OutboundHTTPError) -> DeliveryAttempt {
        refused(.transient, reason: "provider_unreachable", code: nil, detail: "no answer (\(error.code))")
    }

    private static func firstMessage(_ body: [UInt8]) -> [String: JSONValue]? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(body)),
              case .array(let messages)? = object["messages"], case .object(let first)? = messages.first else {
            return nil
        }
        return first
    }

    private static func refused(
        _ refusal: DeliveryAttempt.Refusal, reason: String, code: String?, detail: String
    ) -> DeliveryAttempt {
        DeliveryAttempt(provider: VonageProvider.name, refusal: refusal, reason: reason, errorCode: code,
                        detail: detail)
    }

    /// Letters, digits and `-`, at most 64: Vonage's ids are hex strings or UUIDs, and
    /// nothing else should reach the timeline as one.
    static func isMessageId(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
