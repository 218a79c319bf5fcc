import Foundation
import TacitServer
import TacitStore

/// The security settings of `tacit serve` (each also a `TACIT_*` variable or config line).
extension ServerSettings {
    static let securityValued: Set<String> = [
        "max-in-flight", "connections-per-address", "rate-sends-per-number", "rate-verifications-per-number",
        "rate-verifications-per-ip", "rate-requests-per-key", "max-failed-checks", "allow-countries", "deny-countries",
        "allow-prefixes", "deny-prefixes", "max-device-events", "device-event-burst", "device-event-rate",
        "rate-sends-per-number-all-apps", "rate-verifications-per-number-all-apps", "max-failed-checks-all-apps",
    ]

    static let securityUsage = """
          --max-in-flight N     requests handled at once before 503 + Retry-After (default 2048)
          --connections-per-address N  connections one address may hold (default 256, 0 no limit; raise behind a proxy)
          --rate-sends-per-number N/SECONDS          code sends per number and application (default 5/600)
          --rate-verifications-per-number N/SECONDS  starts per number and application (default 20/86400)
          --rate-sends-per-number-all-apps N/SECONDS         … over every application (default 15/600)
          --rate-verifications-per-number-all-apps N/SECONDS … over every application (default 60/86400)
          --rate-verifications-per-ip N/SECONDS      starts per source address (default 500/3600)
          --rate-requests-per-key N/SECONDS          requests per API key (default 6000/60)
          --max-failed-checks N consecutive wrong codes per number and application (default 100)
          --max-failed-checks-all-apps N  … over every application (default 300)
          --max-device-events N device events one verification may hold (default 1000; 0 turns it off)
          --device-event-burst N / --device-event-rate N/SECONDS
                                device events a verification may post at once, then steadily (default 60, 60/60)
          --allow-countries GB,FR / --deny-countries … / --allow-prefixes +44 / --deny-prefixes +881,+882,+883
        """

    static func applySecurity(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        var security = configuration.security
        func whole(_ flag: String, minimum: Int) throws -> Int? {
            try setting(flag).map { try Self.count($0, flag, minimum: minimum) }
        }
        func limit(_ flag: String) throws -> RateLimit? {
            try setting(flag).map { try Self.rate($0, flag) }
        }
        if let value = try whole("max-in-flight", minimum: 1) { configuration.maxInFlight = value }
        if let value = try whole("connections-per-address", minimum: 0) { configuration.connectionsPerAddress = value }
        if let value = try limit("rate-sends-per-number") { security.sendsPerNumber = value }
        if let value = try limit("rate-verifications-per-number") { security.verificationsPerNumber = value }
        if let value = try limit("rate-verifications-per-ip") { security.verificationsPerAddress = value }
        if let value = try limit("rate-requests-per-key") { security.requestsPerKey = value }
        if let value = try whole("max-failed-checks", minimum: 0) { security.maxConsecutiveFailedChecks = value }
        if let value = try limit("rate-sends-per-number-all-apps") { security.sendsPerNumberAllApplications = value }
        if let value = try limit("rate-verifications-per-number-all-apps") {
            security.verificationsPerNumberAllApplications = value
        }
        if let value = try whole("max-failed-checks-all-apps", minimum: 0) {
            security.maxConsecutiveFailedChecksAllApplications = value
        }
        if let value = try whole("max-device-events", minimum: 0) { security.timeline.maxDeviceEvents = value }
        if let value = try whole("device-event-burst", minimum: 1) { security.timeline.deviceEventBurst = value }
        if let value = try limit("device-event-rate") { security.timeline.deviceEventRate = value }
        var destinations = security.destinations
        if let value = setting("allow-countries") { destinations.allowedCountries = countries(value) }
        if let value = setting("deny-countries") { destinations.deniedCountries = countries(value) }
        if let value = setting("allow-prefixes") {
            destinations.allowedPrefixes = try prefixes(value, "allow-prefixes")
        }
        if let value = setting("deny-prefixes") { destinations.deniedPrefixes = try prefixes(value, "deny-prefixes") }
        security.destinations = destinations
        configuration.security = security
    }

    private static func count(_ text: String, _ flag: String, minimum: Int) throws -> Int {
        guard let value = Int(text), value >= minimum else {
            throw Arguments.UsageError(message: "--\(flag) must be a whole number ≥ \(minimum)")
        }
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

    private static func countries(_ text: String) -> Set<String> {
        Set(list(text).map { $0.uppercased() })
    }

    private static func prefixes(_ text: String, _ flag: String) throws -> [String] {
        let values = list(text)
        guard values.allSatisfy({ $0.hasPrefix("+") && $0.count > 1 && $0.dropFirst().allSatisfy(\.isNumber) }) else {
            throw Arguments.UsageError(message: "--\(flag) takes E.164 prefixes such as +44,+882")
        }
        return values
    }
}
