import Foundation
import TacitCore

/// The body of `POST /v1/verifications`, validated.
struct StartRequest: Equatable, Sendable {
    var phoneNumber: String
    var country: String?
    var options: VerificationOptions
    /// The end user's address (`device_ip`), canonical; nil when the backend sent none.
    var deviceIP: String?
    /// `"risk_check": "disable"`: the start skips the automatic rules (docs/fraud.md#safe-list-and-risk_check).
    var riskCheckDisabled = false

    /// Reads the body's fields from `json`, refusing with every problem found.
    init(_ json: JSONRequest) throws(APIProblem) {
        var json = json
        let phone = json.string("phone_number", required: true)
        country = json.string("country")
        var options = VerificationOptions()
        if let steps = json.array("workflow") {
            options.workflow = Self.workflow(steps, &json)
            options.emailAddress = Self.emailAddress(steps, &json)
        }
        if let length = json.int("code_length") { options.codeLength = length }
        if let timeout = json.int("channel_timeout") { options.channelTimeout = timeout }
        if let brand = json.string("brand") { options.brand = brand }
        if let locale = json.string("locale") { options.locale = locale }
        options.clientRef = json.string("client_ref")
        if let simSwap = json.object("sim_swap") { options.simSwap = Self.simSwap(simSwap, &json) }
        if let address = json.string("device_ip") {
            deviceIP = DeviceAddress.normalized(address)
            if deviceIP == nil { json.problem("device_ip", "must be an IPv4 or IPv6 address") }
        }
        if let check = json.string("risk_check") {
            if !["enable", "disable"].contains(check) { json.problem("risk_check", "must be enable or disable") }
            riskCheckDisabled = check == "disable"
        }
        if let country, !Self.isRegionCode(country) {
            json.problem("country", "must be a two-letter ISO 3166 region code")
        }
        if !options.locale.isEmpty {
            if !Self.isLocale(options.locale) {
                json.problem("locale", "must look like en-us")
            } else if LocaleCatalog.builtIn.match(options.locale) == nil {
                json.problem("locale", LocaleCatalog.unservedReason)
            }
        }
        for problem in options.problems() where !json.problems.contains(where: { $0.name == problem.name }) {
            json.problem(problem.name, problem.reason)
        }
        try json.finish()
        phoneNumber = phone ?? ""
        self.options = options
    }

    private static func workflow(_ steps: [JSONValue], _ json: inout JSONRequest) -> [Channel] {
        var channels: [Channel] = []
        for (index, step) in steps.enumerated() {
            let name = "workflow[\(index)]"
            guard case .object(let fields) = step, case .string(let text)? = fields["channel"] else {
                json.problem(name, "must be an object with a channel")
                continue
            }
            guard let channel = Channel(rawValue: text) else {
                json.problem("\(name).channel", "must be one of silent_auth, sms, voice, whatsapp, email")
                continue
            }
            for key in fields.keys where key != "channel" && !(channel == .email && key == "to") {
                json.problem("\(name).\(key)", "is not a known field")
            }
            channels.append(channel)
        }
        return channels
    }

    /// The email step's `to` (docs/api.md#email-steps), normalized; its shape is judged
    /// with the other options.
    private static func emailAddress(_ steps: [JSONValue], _ json: inout JSONRequest) -> String? {
        for (index, step) in steps.enumerated() {
            guard case .object(let fields) = step, fields["channel"]?.stringValue == Channel.email.rawValue,
                  let to = fields["to"] else { continue }
            guard case .string(let address) = to else {
                json.problem("workflow[\(index)].to", "must be a string")
                return nil
            }
            return EmailAddress.normalized(address)
        }
        return nil
    }

    private static func simSwap(_ fields: [String: JSONValue], _ json: inout JSONRequest) -> SimSwapPolicy {
        var policy = SimSwapPolicy()
        for (key, value) in fields {
            switch (key, value) {
            case ("max_age_hours", .number(let hours)) where hours.rounded() == hours && abs(hours) < 1e6:
                policy.maxAgeHours = Int(hours)
            case ("action", .string(let text)):
                if let action = SimSwapPolicy.Action(rawValue: text) { policy.action = action }
                else { json.problem("sim_swap.action", "must be flag or block") }
            case ("max_age_hours", _): json.problem("sim_swap.max_age_hours", "must be an integer")
            case ("action", _): json.problem("sim_swap.action", "must be flag or block")
            default: json.problem("sim_swap.\(key)", "is not a known field")
            }
        }
        return policy
    }

    private static func isRegionCode(_ text: String) -> Bool {
        text.count == 2 && text.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private static func isLocale(_ text: String) -> Bool {
        (2...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") }
    }
}
