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
        let store = try vonageFixture(app.store as? any VerificationStore & KeyStore & ApplicationStore)
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
func vonageFixture<T>(_ value: T?) throws -> T {
    guard let value else { throw FixtureMissing() }
    return value
}

private struct FixtureMissing: Error {}

extension VonageFaceFixtures {
    /// A private key no application registered, fixed here so a test needs no key generation
    /// (spawning `openssl` while hundreds of tests run is slow and has crashed Foundation's Process).
    static let unregisteredKey = """
-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQC1JbN9tMfSwHBl
HOJokI75x3QQuZB/Y1Wk1y8uczVbvsQ0YsR69iaSDGRGnzYD+u8SvaV9o/zsLj9V
1lmzCL8Oq+guHkvZ86idtt99fVkiRTc8SPhFPRD8Gx+fNkFJSdrl1v8oZq6BzB4R
VNqRWCKrCbuKA8quScx9eknRWW/2TdCaQHtCMnbh7yL/UbpCvPoehGNBGiHTRdU8
m/yQgnpPNgxYUZLvISQVUrioKSgB2V/smYdE9e0IC1N6iXza5wFabw1DdGtcM15B
YWGiLUoAFwdl/q5NQAWLM+Wf2qnrBTnLc/PPZRnHFzPveqerQlWzHD3AnsIz5iQT
NE4HRNAdAgMBAAECggEAJfdbpghmjCuksvCJnHhV2xCcaSf3WtevOtAV9bKUV6EF
PuSHgS0HmvspZirW16E3i9I/NfTRnQ+5WwyEutMlthW+ITJc2/anW7zZHRRRQu9G
WyaBEIPyxCAMMeKdbtahoCP+URGqWA53q9LAx481Hut4iL3wNDTH/PGNOKk53+GH
d/3Jf+drvB64dkcF6syTWSs8e2Tl3HCRuRLvUlI7IQLQPT2VsspfmZgBQl0B6r59
ZT69jdyBP7lpzccwH7aN443L02YldCui34BjtCO2O/izu/6Vhow1oJ5R4YE6ld6e
8cdSxhcG3q7AlT1ZJ+kfnfUPHZjTPjN8Pq6fgFaAsQKBgQDfP3cB5YZ7aNkFuHMG
W+3wwdMeE+2MDAY0A0962A05f4Dp30cexQrerbyYuXpcBS0dSrvBpwZBGbRtWKeB
gIbALV0XV45FuiGE1Zks6G+t9ysEtyDBnKdI+/vYI8LTro9EygqpGlYNzIdRs7fz
Jd6o8zFF1iO2Nk2C1KBBfVZn7QKBgQDPuQ9dZvYQU90MqoxXCygaOETAJh4Q/TqM
S8BvFAl7lupfZwa8mfKqjQqKvKs0MaIRUCb+Oyk6D5q3MxcH2L6FakzaStuKVIps
fKh3lkec+2DYWVfB7HODo5rNr+wEt1ylaUqtwzQlPh20mYSNEekvGn4oHUATfK+K
f7k2oK2i8QKBgQCrRb5glx24ejTdfafJfieq6Ji2X6WEJwlvSAbnAPAMZ7SYOHMQ
uSzgr7ucE9g61sHI0jf/lstmkHjq1vQTl25J68Oaj9KXzfe/ODv+xwg/F/xJ7tDT
mQKCLMgHB1CGJErIBJVvLMROa9Z5KP78LNaJGaJ4qJPXTAvlTojwFV9/9QKBgQCf
dCu7Q0I4HmhdRL4eQ04xcmg0KA6EdB7xe2To37S3zo1zVp7xQCvriAFDpri1hDQo
niKQndFz5G6bmvhe6Z62w3bjSvtkIKlxxe98fTvT4ZPiABNBpcS2lGxM4HKI3Eie
IUlWQbZRsHEVJZN+xvT9V5ToLiv1yYznAEypBobDwQKBgQCcmyjOPdZKGtItNOY/
7/PHKMPGc+sRje2e+AEnZxhliM8NnNSkJ52zLQ+W3aWbdAlFtp6tYTTA1HoyyskA
H+R+cUXeBAeSruSlrxPqNv9nzoVrJSkXfOThZysFJiowDw2SNtcl1sSdED/GshQm
DnPqJBIo6X8uzF7zQ+YfdGp3yA==
-----END PRIVATE KEY-----
"""
}
