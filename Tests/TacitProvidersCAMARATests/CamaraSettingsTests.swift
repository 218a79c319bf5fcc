import Foundation
import Testing
import TacitServer
import TacitTesting
@testable import TacitProvidersCAMARA

/// The CAMARA settings `tacit serve` starts with: all or nothing, each problem naming the
/// setting and never its value.
@Suite("CAMARA settings")
struct CamaraSettingsTests {
    static func values(_ keyFile: String) -> [String: String] {
        ["TACIT_CAMARA_ISSUER": "https://op.example/", "TACIT_CAMARA_CLIENT_ID": "client-7f3a",
         "TACIT_CAMARA_PRIVATE_KEY_FILE": keyFile, "TACIT_CAMARA_API_URL": "https://api.op.example"]
    }

    func withKeyFile(_ body: (String) throws -> Void) async throws {
        let keys = try OpenSSLKeys()
        defer { keys.remove() }
        let path = keys.directory.appendingPathComponent("camara.key").path
        try await OpenSSLKeys.shared().privatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        try body(path)
    }

    @Test("no CAMARA setting is no provider; all four and a public URL make the redirect URI from it")
    func complete() async throws {
        #expect(try CamaraSettings(ProviderSettings([:]), publicURL: "https://tacit.example") == nil)
        try await withKeyFile { path in
            let settings = try #require(try CamaraSettings(ProviderSettings(Self.values(path)), publicURL: "https://tacit.example/"))
            #expect(settings.issuer == "https://op.example" && settings.apiURL == "https://api.op.example")
            #expect(settings.redirectURI == "https://tacit.example/v1/silent/callback" && !settings.verifyHashed)
        }
    }

    @Test("a missing or malformed setting, or no public URL, is refused naming the setting and not its value", arguments: [
        ("TACIT_CAMARA_CLIENT_ID", nil as String?), ("TACIT_CAMARA_ISSUER", "op.example"), ("TACIT_CAMARA_API_URL", "ftp://api.op.example"),
        ("TACIT_CAMARA_PRIVATE_KEY_FILE", "/nonexistent/camara.key"), ("TACIT_CAMARA_VERIFY_HASHED", "yes"), ("TACIT_PUBLIC_URL", nil),
    ])
    func refused(setting: String, value: String?) async throws {
        try await withKeyFile { path in
            var values = Self.values(path)
            values[setting] = value
            let publicURL = setting == "TACIT_PUBLIC_URL" ? nil : "https://tacit.example"
            let error = #expect(throws: ProviderSetupError.self) { try CamaraSettings(ProviderSettings(values), publicURL: publicURL) }
            #expect(error?.setting == setting)
            for shown in [value, path, "client-7f3a"].compactMap({ $0 }) { #expect(error?.description.contains(shown) == false) }
        }
    }
}
