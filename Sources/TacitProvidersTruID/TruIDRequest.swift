import Foundation
import TacitCore

/// The SubscriberCheck v0.2 calls, as tru.ID's API reference gives them: the token with
/// HTTP Basic and a form body, then JSON with the bearer token.
enum TruIDRequest {
    static let checksPath = "/subscriber_check/v0.2/checks"

    /// `POST /oauth2/v1/token`, `grant_type=client_credentials`.
    static func token(_ settings: TruIDSettings, timeout: TimeInterval = 10) -> OutboundRequest? {
        guard let url = URL(string: settings.url + "/oauth2/v1/token") else { return nil }
        let basic = Data("\(settings.clientId):\(settings.clientSecret)".utf8).base64EncodedString()
        let body = "grant_type=client_credentials&scope=" + TruIDTokens.scope
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", "Basic \(basic)"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(body.utf8), timeout: timeout)
    }

    /// SubscriberCheck's `period`: the SIM-change window in minutes, 60 to 540000.
    static let periodRange = 60...540_000
    /// tru.ID's window when a check names no `period`: 7 days.
    static let defaultPeriod = 10_080

    /// The `period` for a window of `hours` (the verification's `sim_swap.max_age_hours`), within tru.ID's range.
    static func period(hours: Int) -> Int {
        min(max(hours.multipliedReportingOverflow(by: 60).overflow ? periodRange.upperBound : hours * 60,
                periodRange.lowerBound), periodRange.upperBound)
    }

    /// `POST /subscriber_check/v0.2/checks` with the number as tru.ID writes it (E.164 digits, no `+`),
    /// and the SIM-change window asked for as `period`, so that `no_sim_change` answers for it.
    static func create(
        _ settings: TruIDSettings, token: String, phoneNumber: String, simSwapMaxAgeHours: Int? = nil,
        timeout: TimeInterval = 10
    ) -> OutboundRequest? {
        guard let url = URL(string: settings.url + checksPath) else { return nil }
        let digits = phoneNumber.hasPrefix("+") ? String(phoneNumber.dropFirst()) : phoneNumber
        var body: [String: JSONValue] = ["phone_number": .string(digits)]
        if let hours = simSwapMaxAgeHours { body["period"] = .number(Double(period(hours: hours))) }
        var writer = JSONWriter()
        writer.value(.object(body))
        return OutboundRequest(method: "POST", url: url, headers: headers(token, contentType: "application/json"),
                               body: writer.bytes, timeout: timeout)
    }

    /// `PATCH /subscriber_check/v0.2/checks/{check_id}` with the device's code as a JSON Patch.
    static func patch(
        _ settings: TruIDSettings, token: String, checkId: String, code: String, timeout: TimeInterval = 10
    ) -> OutboundRequest? {
        guard isCheckId(checkId), let url = URL(string: settings.url + checksPath + "/" + checkId) else { return nil }
        var writer = JSONWriter()
        writer.value(.array([.object(["op": .string("add"), "path": .string("/code"), "value": .string(code)])]))
        return OutboundRequest(method: "PATCH", url: url,
                               headers: headers(token, contentType: "application/json-patch+json"),
                               body: writer.bytes, timeout: timeout)
    }

    private static func headers(_ token: String, contentType: String) -> [(String, String)] {
        [("Authorization", "Bearer \(token)"), ("Content-Type", contentType), ("Accept", "application/json"),
         ("User-Agent", "tacit")]
    }

    /// tru.ID's ids are UUIDs; anything else is not put in a path.
    static func isCheckId(_ text: String) -> Bool {
        (8...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == "-") }
    }
}
