import Foundation
import TacitCore
import TacitPhone
import TacitStore

/// A start a fraud rule refused (docs/fraud.md#decisions): the rule, the figures that decided
/// it and whose start it was, for the `verification.blocked` webhook (docs/events.md). No
/// verification exists for it, so the webhook is its only record besides `/metrics` and the
/// security log. The number is kept whole only until it is redacted into the payload.
struct FraudRefusal: Sendable, Equatable {
    var rule: String
    var applicationId: String
    var phoneNumber: String
    /// The number's country as libphonenumber reads it; nil for a number of no country.
    var region: String?
    /// The rule's own figures, as the payload gives them.
    var figures: [String: JSONValue] = [:]

    /// A number on a line the application's level refuses (`line_type`).
    static func lineType(_ number: PhoneNumber, application: String) -> FraudRefusal {
        FraudRefusal(rule: "line_type", applicationId: application, phoneNumber: number.e164, region: number.region,
                     figures: ["line_type": .string(number.lineType.rawValue)])
    }

    /// A number in a blocked prefix (`prefix_volume`, `prefix_conversion`): the prefix and the
    /// sends, conversions and baseline that decided the block, and the seconds left of it.
    static func prefix(_ block: PrefixBlock, number: PhoneNumber, application: String, now: Date) -> FraudRefusal {
        let retryAfter = PrefixRule.refusal(block, now: now).retryAfter ?? 1
        return FraudRefusal(
            rule: block.rule, applicationId: application, phoneNumber: number.e164, region: number.region,
            figures: ["prefix": .string(block.prefix), "sends": .number(Double(block.sends)),
                      "conversions": .number(Double(block.conversions)),
                      "baseline": block.baseline.map { .number($0) } ?? .null,
                      "retry_after": .number(Double(retryAfter))])
    }

    /// A number of a country the application's geo permissions let none of the workflow's
    /// `channels` reach (`geo`).
    static func geo(phoneNumber: String, region: String?, channels: [Channel], application: String) -> FraudRefusal {
        FraudRefusal(rule: "geo", applicationId: application, phoneNumber: phoneNumber, region: region,
                     figures: ["channels": .array(channels.map { .string($0.rawValue) })])
    }

    /// The webhook's body: `{"type": "verification.blocked", "timestamp", "data": {request_id
    /// (null: none exists), application_id, rule, phone_number (redacted), country, and the
    /// rule's figures}}`.
    func payload(at now: Date) -> [UInt8] {
        var data = figures
        data["request_id"] = .null
        data["application_id"] = .string(applicationId)
        data["rule"] = .string(rule)
        data["phone_number"] = .string(Redactor.phone(phoneNumber))
        data["country"] = region.map { .string($0) } ?? .null
        return JSONText.object(["type": .string(WebhookEvent.blocked.rawValue),
                                "timestamp": .string(Timestamp.format(now)), "data": .object(data)])
    }
}
