/// One record a drop-in compatible face keeps for an application (docs/compatible-apis.md):
/// a public identifier it finds the application by, a secret's hash, a secret sealed with
/// the server's field protection, or a setting in clear. The face names its records; the
/// store keeps them without knowing any face, so a new face needs no change here.
public struct FaceCredential: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Public, unique among the face's records of its name, and what lookups go by (`text`).
        case identifier
        /// A strong hash of a secret (`bytes`); the store never sees the secret.
        case secretHash = "secret_hash"
        /// A secret sealed with the field protection (`bytes`), which `tacit keys reseal` seals again.
        case sealedSecret = "sealed_secret"
        /// A value in clear (`text`), such as a callback URL or a public key.
        case setting
    }

    /// The face that owns it (`Verification.face` of what the face starts).
    public var face: String
    /// The face's name for it, unique per application and face.
    public var name: String
    public var kind: Kind
    /// An identifier's or a setting's value.
    public var text: String?
    /// A hash's or a sealed secret's bytes.
    public var bytes: [UInt8]?

    public init(face: String, name: String, kind: Kind, text: String? = nil, bytes: [UInt8]? = nil) {
        self.face = face
        self.name = name
        self.kind = kind
        self.text = text
        self.bytes = bytes
    }
}

extension Array where Element == FaceCredential {
    /// The record named `name`, if the list holds one.
    public func named(_ name: String) -> FaceCredential? { first { $0.name == name } }
}
