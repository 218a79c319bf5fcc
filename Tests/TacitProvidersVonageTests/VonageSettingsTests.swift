import Foundation
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// Start-up checks on Vonage's settings: a missing piece names its setting, never a value.
@Suite("Vonage settings: what is configured, and what stops the server")
struct VonageSettingsTests {
    static let key = "abcd1234"
    static let secret = "Zx9" + String(repeating: "q7", count: 6)

    static func parse(_ values: [String: String]) throws(ProviderSetupError) -> VonageSettings? {
        try VonageSettings(ProviderSettings(values), publicURL: "https://tacit.example/")
    }

    @Test("no Vonage setting, or the signature secret alone (which only verifies callbacks), configures nothing")
    func notConfigured() throws {
        #expect(try Self.parse([:]) == nil)
        #expect(try Self.parse(["TACIT_VONAGE_SIGNATURE_SECRET": Self.secret]) == nil)
    }

    @Test("a full set configures Vonage for SMS only, the default REST URL, and FROM without its plus")
    func configured() throws {
        let settings = try #require(try Self.parse(["TACIT_VONAGE_API_KEY": Self.key, "TACIT_VONAGE_API_SECRET": Self.secret,
                                                    "TACIT_VONAGE_FROM": "+447700900001"]))
        #expect(settings.restURL == "https://rest.nexmo.com")
        #expect(settings.publicURL == "https://tacit.example")
        #expect(settings.from == "447700900001")
        #expect(settings.channels == [.sms])
    }

    @Test("a missing key, secret or sender, or a malformed value, names the setting and never a value", arguments: [
        (["TACIT_VONAGE_API_SECRET": secret, "TACIT_VONAGE_FROM": "Acme"], "TACIT_VONAGE_API_KEY"),
        (["TACIT_VONAGE_API_KEY": key, "TACIT_VONAGE_FROM": "Acme"], "TACIT_VONAGE_API_SECRET"),
        (["TACIT_VONAGE_API_KEY": key, "TACIT_VONAGE_API_SECRET": secret], "TACIT_VONAGE_FROM"),
        (["TACIT_VONAGE_API_KEY": "not a key", "TACIT_VONAGE_API_SECRET": secret, "TACIT_VONAGE_FROM": "Acme"], "TACIT_VONAGE_API_KEY"),
        (["TACIT_VONAGE_API_KEY": key, "TACIT_VONAGE_API_SECRET": secret, "TACIT_VONAGE_FROM": "Acme",
          "TACIT_VONAGE_REST_URL": "ftp://\(secret)@x"], "TACIT_VONAGE_REST_URL"),
    ])
    func refused(values: [String: String], setting: String) {
        #expect {
            _ = try Self.parse(values)
        } throws: { error in
            guard let error = error as? ProviderSetupError else { return false }
            let line = error.description
            return error.setting == setting && line.hasPrefix(setting + ":") && !line.contains(Self.secret)
        }
    }

    @Test("a route naming vonage for voice or WhatsApp stops the server, since Vonage carries SMS only here")
    func smsOnlyRoutes() throws {
        let vonage = try #require(try VonageProvider.routed(ProviderSettings(["TACIT_VONAGE_API_KEY": Self.key,
            "TACIT_VONAGE_API_SECRET": Self.secret, "TACIT_VONAGE_FROM": "Acme"]), publicURL: nil, http: RecordingHTTPClient()))
        #expect(throws: ProviderSetupError.self) {
            _ = try ProviderRouter(providers: [vonage], routes: try ProviderRoutes(settings: ["TACIT_ROUTE_VOICE": "vonage"]))
        }
        _ = try ProviderRouter(providers: [vonage], routes: try ProviderRoutes(settings: ["TACIT_ROUTE_SMS": "vonage"]))
    }
}

