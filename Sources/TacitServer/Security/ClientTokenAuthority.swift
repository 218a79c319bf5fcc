import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// The one place a device's client token is judged, for the security gate and the
/// device routes alike. The answer never depends on whether the id in the path
/// exists, so a token can't be used to probe for other verifications.
struct ClientTokenAuthority: Sendable {
    let store: any VerificationStore
    let secrets: ServerSecrets

    /// The verification `token` opens. A finished verification's own token, or the
    /// token of another pending verification, is a 403; anything else is a 401.
    func authorize(_ token: String, id: String?) async throws -> Verification {
        let hash = try secrets.tokenHash(token)
        if let id, let verification = try await verification(id, openedBy: hash) {
            guard verification.status == .pending else { throw APIProblem.clientTokenExpired }
            return verification
        }
        if let owner = ClientToken.verificationId(in: token), owner != id,
           try await verification(owner, openedBy: hash)?.status == .pending {
            throw APIProblem.clientTokenForbidden
        }
        throw APIProblem.clientTokenMissing
    }

    /// Verification `id`, when the token hashing to `hash` is its own.
    private func verification(_ id: String, openedBy hash: [UInt8]) async throws -> Verification? {
        guard let verification = try await store.verification(id: id),
              ConstantTime.equals(hash, verification.clientTokenHash) else { return nil }
        return verification
    }
}
