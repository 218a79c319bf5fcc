import Foundation
import TacitCore
import TacitCrypto
import TacitProviderKit
import TacitServer
import TacitTesting
@testable import TacitProvidersVonage

/// What the callback suites share: the signature secret, an application whose Vonage
/// callback route verifies with it, and the calls that start a verification.
enum VonageCallbackFixture {
    static let secret = "vonage-signature-secret"
    /// A number outside the virtual range, so the test's sender (not the dev inbox) takes
    /// its messages and records the provider's message id the callbacks name.
    static let sentNumber = "+447911123456"

    /// Puts the Vonage callback route, verifying with `secret`, into the application.
    static func configure(_ dependencies: inout TacitApplication.Dependencies,
                          method: VonageSignature.Method = .md5hash) {
        dependencies.callbacks = [VonageCallbackRoute(secret: secret, method: method)]
    }

    /// Starts a verification for a virtual number and returns its id.
    static func start(_ client: TestClient, number: String = "+99012345670",
                      workflow: String = #"[{"channel":"sms"},{"channel":"voice"}]"#) async throws -> String {
        let reply = try await client.post("/v1/verifications", raw: #"{"phone_number":"\#(number)","workflow":\#(workflow)}"#)
        guard reply.status == 202, let id = reply.string("request_id") else { throw FixtureError.unexpected(reply.status) }
        await client.sendApplied(id)
        return id
    }

    /// An HS256 token over `body` as Vonage signs its callbacks.
    static func token(_ body: String, clock: ManualClock, secret: String = secret, jti: String = UUID().uuidString,
                      age: TimeInterval = 0) -> String {
        JWT.sign(claims: ["iat": .int(Int64(clock.now().timeIntervalSince1970 - age)), "jti": .string(jti),
                          "payload_hash": .string(Hex.encode(SHA256.hash(body)))], secret: Array(secret.utf8))
    }

    enum FixtureError: Error { case unexpected(Int) }

    /// A silent provider that issues every check at the provider, as Verify v2 does.
    final class Issuing: SilentAuthProvider, Sendable {
        let name: String
        init(_ name: String) { self.name = name }
        var providerName: String { name }

        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            .issuedAtProvider(SilentChallenge(checkURL: "http://127.0.0.1:9/\(name)", provider: name,
                                              reference: "ref-\(name)"), events: [])
        }
    }

    /// The silent router over one issuing provider named `name`.
    static func silentRouter(_ name: String) throws -> SilentProviderRouter {
        try SilentProviderRouter(providers: [RoutedSilentProvider(name: name, provider: Issuing(name))],
                                 routes: try ProviderRoutes(settings: [:]),
                                 region: { $0.hasPrefix("+44") ? "GB" : nil })
    }
}
