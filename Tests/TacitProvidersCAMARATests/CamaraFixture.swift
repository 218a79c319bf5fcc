import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitTesting
@testable import TacitProvidersCAMARA

/// A scripted operator behind the recording HTTP client: discovery, token, bc-authorize
/// and the two network APIs, each answering what the test set.
final class CamaraFixture: Sendable {
    static let issuer = "http://127.0.0.1:9/oidc"
    static let api = "http://127.0.0.1:9/api"
    static let number = "+447700900123"

    let http: RecordingHTTPClient
    let clock = ManualClock()
    let settings: CamaraSettings
    let publicKey: RSAPublicKey
    let provider: CamaraProvider
    private let script: Script

    /// The answers by path, shared with the HTTP client's closure.
    final class Script: Sendable {
        let table = Mutex<[String: [OutboundResponse]]>([:])
    }

    init(keyId: String? = nil, hashed: Bool = false) async throws {
        let pair = try await OpenSSLKeys.shared()
        publicKey = try RSAPublicKey(pem: pair.publicPEM)
        settings = CamaraSettings(issuer: Self.issuer + "/", clientId: "tacit-client", signingKey: try CamaraSigningKey(pem: pair.privatePEM),
                                  apiURL: Self.api, publicURL: "https://tacit.example/", keyId: keyId, verifyHashed: hashed)
        let script = Script()
        self.script = script
        http = RecordingHTTPClient { request in
            let path = request.url.path
            return script.table.withLock { table in
                guard var queue = table[path], !queue.isEmpty else { return OutboundResponse(status: 404) }
                let answer = queue.count > 1 ? queue.removeFirst() : queue[0]
                table[path] = queue
                return answer
            }
        }
        provider = CamaraProvider(settings: settings, http: http, clock: clock)
        answer("/oidc/.well-known/openid-configuration", Self.json(200, [
            "issuer": Self.issuer, "authorization_endpoint": "http://127.0.0.1:9/oidc/authorize",
            "token_endpoint": "http://127.0.0.1:9/oidc/token", "backchannel_authentication_endpoint": "http://127.0.0.1:9/oidc/bc-authorize",
        ]))
    }

    /// Answers requests to `path` with `responses` in turn, the last one from then on.
    func answer(_ path: String, _ responses: OutboundResponse...) {
        script.table.withLock { $0[path] = responses }
    }

    static func json(_ status: Int, _ object: [String: Any]) -> OutboundResponse {
        OutboundResponse(status: status, headers: ["content-type": "application/json"],
                         body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }

    func requests(to path: String) -> [OutboundRequest] {
        http.requests.filter { $0.url.path == path }
    }

    static func form(_ request: OutboundRequest) -> [String: String] {
        var components = URLComponents()
        components.percentEncodedQuery = String(decoding: request.body, as: UTF8.self)
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }

    static func query(_ url: String) -> [String: String] {
        Dictionary((URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
    }

    static func body(_ request: OutboundRequest) -> [String: JSONValue] {
        (try? JSONParser.parse(request.body))?.objectValue ?? [:]
    }
}
