import Foundation
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting

/// Two applications with Vonage credentials on one test server, and the Vonage SDK's
/// ways of authenticating as them: an RS256 JWT signed with the application's private
/// key (the claims the official SDK writes), or Basic `api_key:api_secret`.
struct VonageFaceFixtures {
    var a: Application
    var credentialsA: IssuedCredentials
    var b: Application
    var credentialsB: IssuedCredentials
    let privateKey: RSAPrivateKey

    static func make(_ app: TestApplication) async throws -> VonageFaceFixtures {
        let store = try fixture(app.store as? any VerificationStore & KeyStore & ApplicationStore)
        let manager = try await ApplicationManager.open(store: store)
        let keys = try await OpenSSLKeys.shared()
        let a = try await manager.create(name: "Alpha", vonagePublicKeyPEM: keys.publicPEM)
        let b = try await manager.create(name: "Bravo", vonagePublicKeyPEM: keys.publicPEM)
        return VonageFaceFixtures(a: a.application, credentialsA: a.credentials, b: b.application, credentialsB: b.credentials,
                                  privateKey: try RSAPrivateKey(pem: keys.privatePEM))
    }

    /// A JWT as the official SDK makes it for `applicationId`, at `now`.
    func jwt(_ applicationId: String, now: Date, lifetime: Int64 = 900, jti: String = UUID().uuidString, key: RSAPrivateKey? = nil) throws -> String {
        let issued = Int64(now.timeIntervalSince1970)
        return try JWT.sign(claims: ["application_id": .string(applicationId), "iat": .int(issued), "jti": .string(jti),
                                     "exp": .int(issued + lifetime)], privateKey: key ?? privateKey)
    }

    static func basic(_ credentials: IssuedCredentials, secret: String? = nil) -> String {
        "Basic " + Base64.encode(Array("\(credentials.vonageAPIKey):\(secret ?? credentials.vonageAPISecret)".utf8))
    }

    /// A client authenticating as application A (`b` for B) with a fresh JWT per request.
    func client(_ base: TestClient, app: TestApplication, asB: Bool = false) throws -> VonageClient {
        VonageClient(base: base, token: { [self] in try jwt(asB ? credentialsB.vonageApplicationId : credentialsA.vonageApplicationId, now: app.clock.now()) })
    }
}

/// A test client for the face: each call carries a fresh credential from `token`.
struct VonageClient: Sendable {
    let base: TestClient
    let token: @Sendable () throws -> String

    func send(_ method: String, _ path: String, json: Any? = nil) async throws -> TestResponse {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await base.send(method, path, body: body, headers: ["Authorization": "Bearer " + token()])
    }

    func start(_ number: String, _ channels: [String], extra: [String: Any] = [:]) async throws -> TestResponse {
        let workflow = channels.map { channel -> [String: Any] in
            channel == "whatsapp" ? ["channel": channel, "to": number, "from": "447700900001"] : ["channel": channel, "to": number]
        }
        return try await send("POST", "/v2/verify", json: ["brand": "Acme", "workflow": workflow].merging(extra) { $1 })
    }
}

/// The value, or a thrown error, for a fixture outside a test body.
func fixture<T>(_ value: T?) throws -> T {
    guard let value else { throw FixtureMissing() }
    return value
}

private struct FixtureMissing: Error {}
