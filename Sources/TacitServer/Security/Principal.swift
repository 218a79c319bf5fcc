import TacitStore

/// Who a request acts as, once its credential is checked.
enum Principal: Sendable, Equatable {
    /// A server-to-server caller holding an API key.
    case key(APIKey)
    /// A device holding one verification's client token.
    case device(verificationId: String)
    /// A keyless caller on this machine, accepted in dev mode only.
    case devLoopback

    /// The per-key counter this principal spends, if any.
    var keyId: String? {
        if case .key(let key) = self { return key.id }
        return nil
    }
}
