import Foundation
import TacitCore
import TacitPhone
import TacitServer

/// A Vonage `workflow` array mapped onto Tacit's steps: `silent_auth`, `sms`, `voice`,
/// `whatsapp` and `email` are Tacit's own channels; `rcs` Tacit doesn't have, and a
/// 422 names it. Each step's own fields are checked as Vonage documents them; every
/// phone step must go to the one number the verification is for, an email step to an
/// address (docs/compatible-apis.md).
struct VonageWorkflow {
    var channels: [Channel] = []
    var number: PhoneNumber?
    /// The sms step's `app_hash`: the SMS ends with it for Android's SMS Retriever.
    var smsAppHash: String?
    /// The email step's `to`, normalized.
    var emailAddress: String?

    static let unsupported: Set<String> = ["rcs", "whatsapp_interactive"]

    static func read(_ value: JSONValue?, into reader: inout VonageFields, phones: PhoneNumberParser,
                     allowVirtualRange: Bool) -> VonageWorkflow {
        var workflow = VonageWorkflow()
        guard case .array(let steps)? = value else {
            reader.problem("workflow", value == nil || value == .null ? "is required" : "must be an array")
            return workflow
        }
        guard (1...3).contains(steps.count) else {
            reader.problem("workflow", "must have 1 to 3 channels")
            return workflow
        }
        for (index, step) in steps.enumerated() {
            workflow.readStep(step, index: index, into: &reader, phones: phones, allowVirtualRange: allowVirtualRange)
        }
        if workflow.channels.dropFirst().contains(.silentAuth) {
            reader.problem("workflow", "silent_auth must be the first channel")
        } else if Set(workflow.channels).count != workflow.channels.count {
            reader.problem("workflow", "a channel may appear only once")
        }
        return workflow
    }

    private mutating func readStep(_ step: JSONValue, index: Int, into reader: inout VonageFields,
                                   phones: PhoneNumberParser, allowVirtualRange: Bool) {
        let name = "workflow[\(index)]"
        guard case .object(let fields) = step else {
            reader.problem(name, "must be an object with a channel and a to")
            return
        }
        var step = VonageFields(fields, prefix: name + ".", problems: reader.problems)
        defer { reader = VonageFields(reader.fields, prefix: reader.prefix, problems: step.problems) }
        guard let text = step.string("channel", required: true) else { return }
        guard let channel = Channel(rawValue: text) else {
            step.problem("channel", Self.unsupported.contains(text)
                         ? "\(text) is not a channel Tacit has; use silent_auth, sms, voice, whatsapp or email"
                         : "must be one of silent_auth, sms, voice, whatsapp, email")
            return
        }
        if let hash = Self.checkFields(of: channel, &step) { smsAppHash = hash }
        channels.append(channel)
        guard let to = step.string("to", required: true) else { return }
        if channel == .email {
            if let reason = EmailAddress.problem(to) { step.problem("to", reason) }
            emailAddress = EmailAddress.normalized(to)
            return
        }
        guard let parsed = Self.phone(to, phones: phones, allowVirtualRange: allowVirtualRange) else {
            step.problem("to", "must be a phone number in E.164 without the leading +, e.g. 447700900000")
            return
        }
        if let number, number.e164 != parsed.e164 {
            step.problem("to", "every channel must go to the same number")
        } else {
            number = parsed
        }
    }

    /// The fields Vonage documents for each channel, with their limits; of them Tacit uses
    /// only an sms step's `app_hash` (docs/locales.md#autofill), which it returns when valid.
    @discardableResult
    private static func checkFields(of channel: Channel, _ step: inout VonageFields) -> String? {
        switch channel {
        case .silentAuth:
            _ = step.string("redirect_url")
            _ = step.bool("sandbox")
            // Tacit always checks coverage first: with none, the workflow starts on its next channel.
            _ = step.bool("coverage_check")
            if let mode = step.string("mode"), mode != "standard" { step.problem("mode", "only standard is supported") }
        case .sms:
            if let from = step.string("from"), !isSender(from) {
                step.problem("from", "must be up to 15 digits or 11 letters and digits")
            }
            let hash = step.string("app_hash")
            if let hash, !SMSAutofill.isAppHash(hash) {
                step.problem("app_hash", "must be exactly 11 characters of A-Z, a-z, 0-9, + and /")
            }
            for name in ["entity_id", "content_id"] {
                if let id = step.string(name), !(1...20).contains(id.count) {
                    step.problem(name, "must be 1 to 20 characters")
                }
            }
            _ = step.bool("reuse_code")
            return hash.flatMap { SMSAutofill.isAppHash($0) ? $0 : nil }
        case .whatsapp:
            if let from = step.string("from", required: true), !isSender(from) {
                step.problem("from", "must be up to 15 digits or 11 letters and digits")
            }
            if let mode = step.string("mode"), !["otp_code", "zero_tap"].contains(mode) {
                step.problem("mode", "must be otp_code or zero_tap")
            }
            _ = step.bool("reuse_code")
        case .voice:
            _ = step.bool("reuse_code")
        case .email:
            // Tacit sends from `TACIT_SMTP_FROM`; a `from` is checked and otherwise not used.
            if let from = step.string("from"), let reason = EmailAddress.problem(from) { step.problem("from", reason) }
        }
        return nil
    }

    private static func isSender(_ text: String) -> Bool {
        let digits = text.allSatisfy { $0.isASCII && $0.isNumber }
        return digits
            ? (1...15).contains(text.count)
            : (1...11).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// A Vonage `to`: E.164 digits without the `+` (one is tolerated), 1 to 50 characters.
    static func phone(_ text: String, phones: PhoneNumberParser, allowVirtualRange: Bool) -> PhoneNumber? {
        let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard (1...50).contains(text.count), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return try? phones.parse("+" + digits, allowVirtualRange: allowVirtualRange)
    }
}
