import TacitStore

/// Who a request acts as, once its credential is checked.
enum Principal: Sendable, Equatable {
    /// A server-to-server caller holding an API key.
    case key(APIKey)
    /// A device holding one verification's client token.
    case device(verificationId: String)
    /// A keyless caller on this machine, accepted in dev mode only.
    case devLoopback

    /// The application this principal acts for: its key's, or `dev` for a keyless dev
    /// caller. nil for a device, whose client token is bound to one verification already.
    var applicationId: String? {
        switch self {
        case .key(let key): key.applicationId
        case .devLoopback: Application.devID
        case .device: nil
        }
    }

    /// The API key's id, nil for any other principal.
    var keyId: String? {
        if case .key(let key) = self { return key.id }
        return nil
    }
}
