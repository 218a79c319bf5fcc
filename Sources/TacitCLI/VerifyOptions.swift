import Foundation
import TacitKit

/// The parsed flags of `tacit verify`.
struct VerifyOptions: Sendable {
    var number: String
    var server: URL
    var apiKey: String?
    var request: StartVerificationRequest
    var autoCode: Bool
    var json: Bool
    /// The source address of the device's check_url fetch; `127.0.0.1` with `--wifi`.
    var cellularSource: String?
    var interface: String?
    var wifi: Bool

    static let valued: Set<String> = [
        "server", "api-key", "workflow", "brand", "code-length", "timeout", "cellular-source", "interface",
    ]
    static let flags: Set<String> = ["auto-code", "wifi", "json"]

    init(_ parsed: Arguments, environment: [String: String]) throws {
        guard parsed.positional.count == 1, let number = parsed.positional.first else {
            throw Arguments.UsageError(message: parsed.positional.isEmpty ? "no NUMBER given" : "too many arguments")
        }
        guard number.hasPrefix("+"), number.count > 4, number.dropFirst().allSatisfy(\.isNumber) else {
            throw Arguments.UsageError(message: "NUMBER must be in E.164 form, like +99012345670")
        }
        self.number = number
        let serverText = parsed.value("server") ?? environment["TACIT_SERVER"] ?? "http://127.0.0.1:8080"
        guard let server = URL(string: serverText), server.scheme == "http" || server.scheme == "https",
              server.host != nil else {
            throw Arguments.UsageError(message: "--server must be an http(s) URL")
        }
        self.server = server
        apiKey = parsed.value("api-key") ?? environment["TACIT_API_KEY"]
        wifi = parsed.has("wifi")
        if wifi, parsed.value("cellular-source") != nil || parsed.value("interface") != nil {
            throw Arguments.UsageError(message: "--wifi can't be combined with --cellular-source or --interface")
        }
        interface = parsed.value("interface")
        cellularSource = wifi ? "127.0.0.1" : parsed.value("cellular-source") ?? (interface == nil ? "127.0.0.2" : nil)
        autoCode = parsed.has("auto-code")
        json = parsed.has("json")
        request = StartVerificationRequest(
            phoneNumber: number, workflow: try Self.workflow(parsed.value("workflow")),
            codeLength: try Self.integer(parsed.value("code-length"), "code-length"),
            channelTimeout: try Self.integer(parsed.value("timeout"), "timeout"),
            brand: parsed.value("brand"))
    }

    private static func workflow(_ text: String?) throws -> [Channel]? {
        guard let text else { return nil }
        return try text.split(separator: ",").map {
            let name = $0.trimmingCharacters(in: .whitespaces)
            guard let channel = Channel(rawValue: name) else {
                throw Arguments.UsageError(
                    message: "--workflow: unknown channel \(name) (silent_auth, sms, voice, whatsapp)")
            }
            return channel
        }
    }

    private static func integer(_ text: String?, _ name: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else {
            throw Arguments.UsageError(message: "--\(name) must be a positive number")
        }
        return value
    }

    /// The number as the CLI shows it: country code and last 4 digits, `+99•••••5670`.
    var maskedNumber: String {
        let digits = number.filter(\.isNumber)
        return digits.count > 6 ? "+\(digits.prefix(2))•••••\(digits.suffix(4))" : "+•••"
    }

    /// The path the device's silent check leaves by.
    var cellularTransport: any CellularTransport {
        #if os(Linux)
        SocketCellularTransport(sourceAddress: cellularSource, interface: interface)
        #elseif canImport(Network)
        // Apple platforms pick the path by interface type, not by address.
        wifi ? URLSessionTransport() : NetworkCellularTransport()
        #else
        URLSessionTransport()
        #endif
    }
}
