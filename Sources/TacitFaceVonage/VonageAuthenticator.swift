import Foundation
import Synchronization
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitServer
import TacitStore

/// The Vonage face's own authentication (research §1.1): `Authorization: Bearer` with an
/// RS256 JWT signed by the application's private key, whose `application_id` claim names
/// the application, checked with the public key it registered, with `exp`, an `iat` no
/// older than `window`, and a `jti` good once; or Basic `api_key:api_secret`. Any failure
/// is the same 401, so a caller learns only that the credential is no good.
struct VonageAuthenticator: Sendable {
    let directory: ApplicationDirectory
    let clock: any TacitClock
    let replays: JTIReplayCache
    let keys: PublicKeyCache
    /// How old a token's `iat` may be: the official SDK's tokens live 15 minutes.
    static let window: TimeInterval = 15 * 60

    init(directory: ApplicationDirectory, clock: any TacitClock) {
        self.directory = directory
        self.clock = clock
        self.replays = JTIReplayCache(window: Self.window)
        self.keys = PublicKeyCache()
    }

    /// The application the request acts for.
    func authenticate(_ request: HTTPRequest) async throws -> Application {
        guard let header = request.header("authorization") else { throw VonageProblem.unauthorized }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { throw VonageProblem.unauthorized }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        switch parts[0].lowercased() {
        case "bearer": return try await bearer(credential)
        case "basic": return try await basic(credential)
        default: throw VonageProblem.unauthorized
        }
    }

    private func basic(_ credential: String) async throws -> Application {
        guard let bytes = Base64.decode(credential), let text = String(bytes: bytes, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { throw VonageProblem.unauthorized }
        let key = String(text[..<colon]), secret = String(text[text.index(after: colon)...])
        guard !key.isEmpty, !secret.isEmpty,
              let (application, _) = try await directory.application(
                face: VonageFace.name, identifier: VonageFace.Record.apiKey, value: key, secret: secret,
                secretName: VonageFace.Record.apiSecret, purpose: VonageFace.secretPurpose) else {
            throw VonageProblem.unauthorized
        }
        return application
    }

    private func bearer(_ token: String) async throws -> Application {
        // The claims are read unchecked only to find whose key checks them.
        guard let claimed = Self.unverifiedClaims(token)?["application_id"]?.stringValue, claimed.count <= 64,
              let (application, records) = try await directory.application(
                face: VonageFace.name, identifier: VonageFace.Record.applicationId, value: claimed),
              let pem = records.named(VonageFace.Record.publicKey)?.text, let key = keys.key(pem) else {
            throw VonageProblem.unauthorized
        }
        let now = clock.now()
        let claims: JWT.Claims
        do {
            claims = try JWT.verify(token: token, publicKey: key, now: now, maxAge: Self.window)
        } catch {
            throw error == .expired ? VonageProblem.jwtExpired : VonageProblem.unauthorized
        }
        guard claims["application_id"]?.stringValue == claimed, let jti = claims["jti"]?.stringValue,
              (1...128).contains(jti.count),
              let issued = claims["iat"]?.intValue,
              replays.admit(jti, application: application.id,
                            issuedAt: Date(timeIntervalSince1970: TimeInterval(issued)), now: now) else {
            throw VonageProblem.unauthorized
        }
        return application
    }

    static func unverifiedClaims(_ token: String) -> JWT.Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count < 8192, let bytes = Base64.urlDecode(String(parts[1])) else {
            return nil
        }
        return try? JSONDecoder().decode(JWT.Claims.self, from: Data(bytes))
    }
}

/// Parsed public keys by their PEM, so a request pays for an RSA verify but not for
/// parsing the key; a changed key (`tacit apps set`) is a new entry. Bounded.
final class PublicKeyCache: Sendable {
    private let keys = Mutex<[String: RSAPublicKey]>([:])
    static let capacity = 256

    func key(_ pem: String) -> RSAPublicKey? {
        if let found = keys.withLock({ $0[pem] }) { return found }
        guard let parsed = try? RSAPublicKey(pem: pem) else { return nil }
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll() }
            keys[pem] = parsed
        }
        return parsed
    }
}

extension VonageProblem {
    static let jwtExpired = VonageProblem(status: 401, slug: "jwt-expired", title: "Unauthorized",
                                          detail: "The JWT provided has expired.")
}
