import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// Start-up checks on a Vonage application's settings: each problem names its setting,
/// never its value nor anything of the key file's.
@Suite("Vonage application settings: what is configured, and what stops the server")
struct VonageApplicationSettingsTests {
    static let applicationId = "0B3E6A4F-5C2D-4E1F-9A8B-7C6D5E4F3A2B"

    func withKeyFile(_ body: (OpenSSLKeys, String) async throws -> Void) async throws {
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        let pair = try await OpenSSLKeys.shared()
        try pair.privatePEM.write(to: keys.directory.appendingPathComponent("app.key"), atomically: true, encoding: .utf8)
        try await body(keys, keys.directory.appendingPathComponent("app.key").path)
    }

    static func parse(_ values: [String: String]) throws(ProviderSetupError) -> VonageApplicationCredentials? {
        try VonageApplicationCredentials(ProviderSettings(values), publicURL: "https://tacit.example/")
    }

    @Test("no application setting configures nothing; the SMS API's settings alone carry SMS only")
    func notConfigured() async throws {
        #expect(try Self.parse([:]) == nil)
        #expect(try Self.parse(["TACIT_VONAGE_API_KEY": "abcd1234", "TACIT_VONAGE_SIGNATURE_SECRET": "s"]) == nil)
    }

    @Test("an application with both senders carries WhatsApp and voice, with the default API URL and numbers without plus")
    func configured() async throws {
        try await withKeyFile { _, path in
            let credentials = try #require(try Self.parse([
                "TACIT_VONAGE_APPLICATION_ID": Self.applicationId, "TACIT_VONAGE_PRIVATE_KEY_FILE": path,
                "TACIT_VONAGE_WHATSAPP_FROM": "+447700900001", "TACIT_VONAGE_VOICE_FROM": "447700900002",
                "TACIT_VONAGE_WHATSAPP_TEMPLATE": "acme_ns:verify_code"]))
            #expect(credentials.applicationId == Self.applicationId.lowercased())
            #expect(credentials.apiURL == "https://api.nexmo.com")
            #expect((credentials.whatsappFrom, credentials.voiceFrom) == ("447700900001", "447700900002"))
            #expect(credentials.whatsappTemplate == "acme_ns:verify_code")
            #expect(credentials.channels == [.whatsapp, .voice])
            #expect(credentials.publicURL == "https://tacit.example")
        }
    }

    @Test("with both the SMS API and an application, vonage carries SMS, WhatsApp and voice")
    func bothAPIs() async throws {
        try await withKeyFile { _, path in
            let routed = try #require(try VonageProvider.routed(ProviderSettings([
                "TACIT_VONAGE_API_KEY": "abcd1234", "TACIT_VONAGE_API_SECRET": "secret", "TACIT_VONAGE_FROM": "Acme",
                "TACIT_VONAGE_APPLICATION_ID": Self.applicationId, "TACIT_VONAGE_PRIVATE_KEY_FILE": path,
                "TACIT_VONAGE_WHATSAPP_FROM": "447700900001", "TACIT_VONAGE_VOICE_FROM": "447700900002"]), publicURL: nil,
                http: RecordingHTTPClient()))
            #expect(routed.channels == [.sms, .whatsapp, .voice])
        }
    }

    @Test("a missing or malformed setting, an unreadable key file and a key that is not RSA name the setting and nothing of its value")
    func refused() async throws {
        try await withKeyFile { keys, path in
            try await keys.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.key"])
            let ecPath = keys.directory.appendingPathComponent("ec.key").path
            let missing = keys.directory.appendingPathComponent("absent.key").path
            let good = ["TACIT_VONAGE_APPLICATION_ID": Self.applicationId, "TACIT_VONAGE_PRIVATE_KEY_FILE": path,
                        "TACIT_VONAGE_WHATSAPP_FROM": "447700900001"]
            let cases: [([String: String], String)] = [
                (["TACIT_VONAGE_WHATSAPP_FROM": "447700900001"], "TACIT_VONAGE_APPLICATION_ID"),
                (good.merging(["TACIT_VONAGE_APPLICATION_ID": "not an id!"]) { $1 }, "TACIT_VONAGE_APPLICATION_ID"),
                (good.filter { $0.key != "TACIT_VONAGE_PRIVATE_KEY_FILE" }, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
                (good.merging(["TACIT_VONAGE_PRIVATE_KEY_FILE": missing]) { $1 }, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
                (good.merging(["TACIT_VONAGE_PRIVATE_KEY_FILE": ecPath]) { $1 }, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
                (good.filter { $0.key != "TACIT_VONAGE_WHATSAPP_FROM" }, "TACIT_VONAGE_WHATSAPP_FROM or TACIT_VONAGE_VOICE_FROM"),
                (good.merging(["TACIT_VONAGE_VOICE_FROM": "Acme"]) { $1 }, "TACIT_VONAGE_VOICE_FROM"),
                (good.merging(["TACIT_VONAGE_API_URL": "ftp://x"]) { $1 }, "TACIT_VONAGE_API_URL"),
                (good.merging(["TACIT_VONAGE_WHATSAPP_TEMPLATE": "no spaces please"]) { $1 }, "TACIT_VONAGE_WHATSAPP_TEMPLATE"),
                (["TACIT_VONAGE_APPLICATION_ID": Self.applicationId, "TACIT_VONAGE_PRIVATE_KEY_FILE": path,
                  "TACIT_VONAGE_VOICE_FROM": "447700900002", "TACIT_VONAGE_WHATSAPP_TEMPLATE": "t"], "TACIT_VONAGE_WHATSAPP_FROM"),
            ]
            let keyText = try keys.read("app.key")
            let keyLine = keyText.split(separator: "\n")[1]
            for (values, setting) in cases {
                #expect {
                    _ = try Self.parse(values)
                } throws: { error in
                    guard let error = error as? ProviderSetupError else { return false }
                    let line = error.description
                    return error.setting == setting && line.hasPrefix(setting + ":") && !line.contains(path) && !line.contains(keyLine)
                        && !line.contains(Self.applicationId)
                }
            }
        }
    }
}
