import Foundation
import TacitServer
import TacitStore

/// The security settings of `tacit serve` (each also a `TACIT_*` variable or config line).
extension ServerSettings {
    static let securityValued: Set<String> = [
        "max-in-flight", "connections-per-address", "rate-sends-per-number", "rate-verifications-per-number", "rate-verifications-per-ip",
        "rate-requests-per-key", "max-failed-checks", "allow-countries", "deny-countries", "allow-prefixes", "deny-prefixes",
        "max-device-events", "device-event-burst", "device-event-rate",
    ]

    static let securityUsage = """
          --max-in-flight N     requests handled at once before 503 + Retry-After (default 2048)
          --connections-per-address N  connections one address may hold (default 256, 0 no limit; raise behind a proxy)
          --rate-sends-per-number N/SECONDS          code sends per number (default 5/600)
          --rate-verifications-per-number N/SECONDS  starts per number (default 20/86400)
          --rate-verifications-per-ip N/SECONDS      starts per source address (default 500/3600)
          --rate-requests-per-key N/SECONDS          requests per API key (default 6000/60)
          --max-failed-checks N consecutive wrong codes per number (default 100)
          --max-device-events N device events one verification may hold (default 1000; 0 turns it off)
          --device-event-burst N / --device-event-rate N/SECONDS
                                device events a verification may post at once, then steadily (default 60, 60/60)
          --allow-countries GB,FR / --deny-countries … / --allow-prefixes +44 / --deny-prefixes +881,+882,+883
        """

    static func applySecurity(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        var security = configuration.security
        if let value = setting("max-in-flight") { configuration.maxInFlight = try count(value, "max-in-flight", minimum: 1) }
        if let value = setting("connections-per-address") {
            configuration.connectionsPerAddress = try count(value, "connections-per-address", minimum: 0)
        }
        if let value = setting("rate-sends-per-number") { security.sendsPerNumber = try rate(value, "rate-sends-per-number") }
        if let value = setting("rate-verifications-per-number") { security.verificationsPerNumber = try rate(value, "rate-verifications-per-number") }
        if let value = setting("rate-verifications-per-ip") { security.verificationsPerAddress = try rate(value, "rate-verifications-per-ip") }
        if let value = setting("rate-requests-per-key") { security.requestsPerKey = try rate(value, "rate-requests-per-key") }
        if let value = setting("max-failed-checks") { security.maxConsecutiveFailedChecks = try count(value, "max-failed-checks", minimum: 0) }
        if let value = setting("max-device-events") { security.timeline.maxDeviceEvents = try count(value, "max-device-events", minimum: 0) }
        if let value = setting("device-event-burst") { security.timeline.deviceEventBurst = try count(value, "device-event-burst", minimum: 1) }
        if let value = setting("device-event-rate") { security.timeline.deviceEventRate = try rate(value, "device-event-rate") }
        if let value = setting("allow-countries") { security.destinations.allowedCountries = Set(list(value).map { $0.uppercased() }) }
        if let value = setting("deny-countries") { security.destinations.deniedCountries = Set(list(value).map { $0.uppercased() }) }
        if let value = setting("allow-prefixes") { security.destinations.allowedPrefixes = try prefixes(value, "allow-prefixes") }
        if let value = setting("deny-prefixes") { security.destinations.deniedPrefixes = try prefixes(value, "deny-prefixes") }
        configuration.security = security
    }

    private static func count(_ text: String, _ flag: String, minimum: Int) throws -> Int {
        guard let value = Int(text), value >= minimum else { throw Arguments.UsageError(message: "--\(flag) must be a whole number ≥ \(minimum)") }
        return value
    }

    /// `N/SECONDS`, e.g. `5/600`; `0/…` turns the limit off.
    private static func rate(_ text: String, _ flag: String) throws -> RateLimit {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let limit = Int(parts[0]), limit >= 0, let seconds = Int(parts[1]), seconds > 0 else {
            throw Arguments.UsageError(message: "--\(flag) must look like COUNT/SECONDS, e.g. 5/600")
        }
        return RateLimit(limit, per: TimeInterval(seconds))
    }

    private static func list(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    private static func prefixes(_ text: String, _ flag: String) throws -> [String] {
        let values = list(text)
        guard values.allSatisfy({ $0.hasPrefix("+") && $0.count > 1 && $0.dropFirst().allSatisfy(\.isNumber) }) else {
            throw Arguments.UsageError(message: "--\(flag) takes E.164 prefixes such as +44,+882")
        }
        return values
    }
}
