import Foundation
import TacitServer

/// Builds the server configuration: each setting from its flag, else its `TACIT_*`
/// variable, else its line in the config file, else the default.
public enum ServerSettings {
    /// The options of `tacit serve` that take a value.
    static let valued = Set([
        "host", "port", "db", "database-url", "config", "secret", "public-url", "operator-latency",
    ]).union(keyValued).union(securityValued).union(retentionValued).union(tlsValued)

    /// The configuration `tacit serve ARGUMENTS` would run with in `environment`; throws the
    /// problem `serve` would print, a `TLSSettingError` or a usage error.
    public static func configuration(_ arguments: [String],
                                     environment: [String: String]) throws -> ServerConfiguration {
        let parsed = try Arguments(arguments, valued: valued, flags: ["dev"])
        if let extra = parsed.positional.first { throw Arguments.UsageError(message: "unexpected argument \(extra)") }
        return try configuration(parsed, environment: environment)
    }

    /// The configuration the settings among `parsed`'s options give in `environment`;
    /// options that are no setting (a command's own) are left alone.
    static func configuration(_ parsed: Arguments, environment: [String: String]) throws -> ServerConfiguration {
        var file: [String: String] = [:]
        if let path = parsed.value("config") ?? environment["TACIT_CONFIG"] { file = try readConfigFile(path) }
        func setting(_ flag: String) -> String? {
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            return parsed.value(flag) ?? environment[variable] ?? file[variable]
        }
        func unflagged(_ flag: String) -> String? {
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            return environment[variable] ?? file[variable]
        }
        var configuration = ServerConfiguration()
        let dev = (environment["TACIT_DEV"] ?? file["TACIT_DEV"] ?? "").lowercased()
        configuration.dev = parsed.has("dev") || ["1", "true", "yes"].contains(dev)
        if let host = setting("host") { configuration.host = host }
        if let port = setting("port") {
            guard let number = Int(port), (0...65535).contains(number) else {
                throw Arguments.UsageError(message: "--port must be 0 to 65535")
            }
            configuration.port = number
        }
        if let db = setting("db") { configuration.databasePath = db }
        configuration.databaseURL = setting("database-url")
        if let url = configuration.databaseURL, !StoreFactory.isPostgresURL(url) {
            throw Arguments.UsageError(message: "--database-url must be postgres://USER@HOST:PORT/DATABASE")
        }
        configuration.secret = setting("secret")
        applyKeys(&configuration, setting)
        configuration.publicURL = setting("public-url")
        if let latency = setting("operator-latency") {
            guard let ms = Int(latency), (0...10_000).contains(ms) else {
                throw Arguments.UsageError(message: "--operator-latency must be 0 to 10000 ms")
            }
            configuration.operatorLatencyMilliseconds = ms
        }
        try applySecurity(&configuration, setting)
        try applyTLS(&configuration, setting)
        try applyRetention(&configuration, setting)
        try applyDrain(&configuration) { flag in environment["TACIT_" + flag] ?? file["TACIT_" + flag] }
        try applySends(&configuration, unflagged)
        try applyPrices(&configuration, unflagged)
        applyProviders(to: &configuration, environment: environment, file: file)
        try applyWebhooks(to: &configuration, unflagged)
        return configuration
    }

    static func readConfigFile(_ path: String) throws -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Arguments.UsageError(message: "cannot read config file \(path)")
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            values[String(trimmed[..<equals]).trimmingCharacters(in: .whitespaces)] =
                String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}
