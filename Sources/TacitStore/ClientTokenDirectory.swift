/// Finds which pending verification a client token belongs to, so a device that
/// presents another verification's token gets 403 rather than 401. Optional: a store
/// without it answers every foreign token 401.
public protocol ClientTokenDirectory: Sendable {
    /// The id of the pending verification whose client token hashes to `clientTokenHash`.
    func pendingVerificationID(clientTokenHash: [UInt8]) async throws -> String?
}
