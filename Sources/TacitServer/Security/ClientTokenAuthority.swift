import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// The one place a device's client token is judged, for the security gate and the
/// device routes alike. The answer, and the work done to reach it, never depend on
/// whether the id in the path exists, so a token can't be used to probe for other
/// verifications, by the status or by the time it takes.
struct ClientTokenAuthority: Sendable {
    let store: any VerificationStore
    let secrets: ServerSecrets
    /// Counts the hashing, reads and comparisons each answer took, for tests.
    var meter: TokenCheckMeter? = nil

    /// Compared against when no verification has the id, so an unknown id costs the
    /// same comparison as a wrong token (no hash is all zeros).
    static let unknownHash = [UInt8](repeating: 0, count: 32)

    /// The verification `token` opens. A finished verification's own token, or the
    /// token of another pending verification, is a 403; anything else is a 401.
    ///
    /// The token names its verification, and only that one is read: the path's id is
    /// compared as a string, never looked up, so a 403 is the same work whether the
    /// path's verification exists or not. Only a token that names none (made before
    /// tokens did) is tried against the path's verification.
    func authorize(_ token: String, id: String?) async throws -> Verification {
        let hashes = try secrets.tokenHashes(token)
        meter?.count(.hash)
        guard let claimed = ClientToken.verificationId(in: token) ?? id,
              let verification = try await verification(claimed, openedBy: hashes) else {
            throw APIProblem.clientTokenMissing
        }
        if claimed == id {
            guard verification.status == .pending else { throw APIProblem.clientTokenExpired }
            return verification
        }
        guard verification.status == .pending else { throw APIProblem.clientTokenMissing }
        throw APIProblem.clientTokenForbidden
    }

    /// Verification `id`, when the token hashing to one of `hashes` (one per key of the
    /// ring) is its own. One read and the same constant-time comparisons, found or not.
    private func verification(_ id: String, openedBy hashes: [[UInt8]]) async throws -> Verification? {
        let found = try await store.verification(id: id)
        meter?.count(.read)
        let stored = found?.clientTokenHash ?? Self.unknownHash
        let opens = hashes.reduce(false) { opens, hash in ConstantTime.equals(hash, stored) || opens }
        meter?.count(.comparison)
        return opens ? found : nil
    }
}
