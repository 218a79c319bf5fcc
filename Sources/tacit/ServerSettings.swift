import Foundation
import TacitServer

/// Builds the server configuration from flags, then `TACIT_*` variables, then a config file.
enum ServerSettings {
    static let valued = Set(["host", "port", "db", "database-url", "config", "secret", "public-url", "operator-latency"])
        .union(keyValued)

    static func configuration(_ arguments: [String]) throws -> ServerConfiguration {
        let parsed = try Arguments(arguments, valued: valued.union(securityValued).union(retentionValued).union(tlsValued), flags: ["dev"])
        if let extra = parsed.positional.first { throw Arguments.UsageError(message: "unexpected argument \(extra)") }
        let environment = ProcessInfo.processInfo.environment
        var file: [String: String] = [:]
        if let path = parsed.value("config") ?? environment["TACIT_CONFIG"] { file = try readConfigFile(path) }
        func setting(_ flag: String) -> String? {
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            return parsed.value(flag) ?? environment[variable] ?? file[variable]
        }
        var configuration = ServerConfiguration()
        configuration.dev = parsed.has("dev") || ["1", "true", "yes"].contains((environment["TACIT_DEV"] ?? file["TACIT_DEV"] ?? "").lowercased())
        if let host = setting("host") { configuration.host = host }
        if let port = setting("port") {
            guard let number = Int(port), (0...65535).contains(number) else { throw Arguments.UsageError(message: "--port must be 0 to 65535") }
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
            guard let ms = Int(latency), (0...10_000).contains(ms) else { throw Arguments.UsageError(message: "--operator-latency must be 0 to 10000 ms") }
            configuration.operatorLatencyMilliseconds = ms
        }
        try applySecurity(&configuration, setting)
        try applyTLS(&configuration, setting)
        try applyRetention(&configuration, setting)
        try applyDrain(&configuration) { flag in
            environment["TACIT_" + flag] ?? file["TACIT_" + flag]
        }
        try applySends(&configuration) { flag in
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            return environment[variable] ?? file[variable]
        }
        applyProviders(to: &configuration, environment: environment, file: file)
        try applyWebhooks(to: &configuration) { flag in
            let variable = "TACIT_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            return environment[variable] ?? file[variable]
        }
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
