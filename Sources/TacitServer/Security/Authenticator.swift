import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP
import TacitStore

/// Turns a request's bearer credential into a `Principal`, or a 401/403 problem.
/// A credential that is present is always checked, even in dev mode.
struct Authenticator: Sendable {
    let keys: (any KeyStore)?
    let store: any VerificationStore
    let secrets: ServerSecrets
    let clock: any TacitClock
    let dev: Bool
    /// Who may use dev mode's keyless access besides being on loopback.
    let devAccess: DevAccess
    /// How stale `last_used_at` may get before a use is written (a write per request would be waste).
    static let touchInterval: TimeInterval = 60

    func authenticate(_ request: HTTPRequest, scope: String, id: String?, device: String?) async throws -> Principal {
        guard let bearer = request.bearer, !bearer.isEmpty else {
            guard dev, request.isLoopback else { throw APIProblem.unauthorized }
            guard devAccess.admits(request) else { throw APIProblem.devAccessRefused }
            return .devLoopback
        }
        if bearer.hasPrefix("ct_") { return try await deviceToken(bearer, id: id, permission: device) }
        // Hash first, then index lookups: the secret never meets a comparison.
        guard let keys, let key = try await apiKey(bearer, in: keys), !key.isRevoked else {
            throw APIProblem.unauthorized
        }
        guard key.scopes.contains(scope) else { throw APIProblem.forbidden }
        let now = clock.now()
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.touchInterval }) ?? true {
            try? await keys.touchKey(id: key.id, at: now)
        }
        return .key(key)
    }

    /// The key stored under one of the hashes `bearer` may have: its own, or (for a key
    /// made before API keys had one) its keyed hash under a key of the ring.
    private func apiKey(_ bearer: String, in keys: any KeyStore) async throws -> APIKey? {
        for hash in try APIKeyHash.candidates(bearer, secrets: secrets) {
            if let key = try await keys.key(hash: hash) { return key }
        }
        return nil
    }

    /// A client token is good only on its own verification's device routes, while
    /// the verification is pending; the silent-auth submit only while that step is active.
    /// `ClientTokenAuthority` judges the token itself.
    private func deviceToken(_ token: String, id: String?, permission: String?) async throws -> Principal {
        let verification = try await ClientTokenAuthority(store: store, secrets: secrets).authorize(token, id: id)
        let id = verification.id
        guard let permission, Scope.clientToken.contains(permission) else { throw APIProblem.forbidden }
        if permission == Scope.silentAuthSubmit, verification.activeChannel != .silentAuth {
            throw APIProblem.forbidden
        }
        return .device(verificationId: id)
    }
}
