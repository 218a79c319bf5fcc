import Foundation
import TacitCore

/// Reads Twilio's answer to a create request. 201 carries the message or call resource,
/// whose `sid` is the id receipts name; an error carries `{code, message, more_info,
/// status}`. Twilio's `message` can quote the number, so only the code is kept, with
/// Tacit's own words for it (the timeline masks digit runs in words, so the code travels
/// apart from them).
enum TwilioAnswer {
    static func attempt(_ response: OutboundResponse) -> DeliveryAttempt {
        let object = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body))) ?? [:]
        if (200..<300).contains(response.status) {
            guard case .string(let sid)? = object["sid"], isSid(sid) else {
                return refused(.transient, reason: "provider_error", code: nil,
                               detail: "an answer without a message sid")
            }
            // Twilio prices a message once it is sent; an answer that already says is kept.
            return DeliveryAttempt.accepted(by: TwilioProvider.name, messageId: sid)
                .priced(object["price"]?.stringValue, currency: object["price_unit"]?.stringValue)
        }
        let code = object["code"].flatMap(Self.code)
        if let code, let known = TwilioErrorCodes.permanent[code] {
            return refused(.permanent, reason: known.reason, code: code, detail: known.words)
        }
        let detail = "HTTP \(response.status)"
        // Only a problem with the number is Twilio's last word on a message: any other
        // refusal (a 5xx, throttling, the account's own settings) may pass elsewhere.
        return refused(.transient, reason: "provider_error", code: code, detail: detail)
    }

    /// No HTTP answer at all (refused, timed out): another provider may do better.
    static func attempt(_ error: OutboundHTTPError) -> DeliveryAttempt {
        refused(.transient, reason: "provider_unreachable", code: nil, detail: "no answer (\(error.code))")
    }

    private static func refused(
        _ refusal: DeliveryAttempt.Refusal, reason: String, code: String?, detail: String
    ) -> DeliveryAttempt {
        DeliveryAttempt(provider: TwilioProvider.name, refusal: refusal, reason: reason, errorCode: code,
                        detail: detail)
    }

    private static func code(_ value: JSONValue) -> String? {
        switch value {
        case .number(let number): return number.isFinite && number == number.rounded() ? String(Int(number)) : nil
        case .string(let text): return text.allSatisfy(\.isNumber) && !text.isEmpty && text.count <= 6 ? text : nil
        default: return nil
        }
    }

    /// `SM…`, `MM…` or `CA…` and 32 hex digits, so nothing else reaches the timeline as an id.
    static func isSid(_ text: String) -> Bool {
        text.count == 34 && ["SM", "MM", "CA"].contains(String(text.prefix(2)))
            && text.dropFirst(2).allSatisfy(\.isHexDigit)
    }
}
