import TacitStore

/// A face's credentials for a new application as made: the records the store keeps
/// (public identifiers, hashes of the secrets) and every value in clear, in the order
/// `tacit apps create` shows them once.
public struct IssuedFaceCredentials: Sendable {
    public var stored: [FaceCredential]
    public var shown: [(name: String, value: String)]

    public init(stored: [FaceCredential], shown: [(name: String, value: String)]) {
        self.stored = stored
        self.shown = shown
    }
}
