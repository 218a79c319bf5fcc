import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// An application's credentials as made, secrets included: shown once, by `tacit apps
/// create`, then kept only as the faces' records (public ids and hashes).
public struct IssuedCredentials: Sendable {
    /// The Tacit API key `tk_…` for `/v1`.
    public var apiKey: String
    /// Each face's credentials, in the order the faces are served.
    public var faces: [(face: String, credentials: IssuedFaceCredentials)]

    public init(apiKey: String, faces: [(face: String, credentials: IssuedFaceCredentials)]) {
        self.apiKey = apiKey
        self.faces = faces
    }

    /// Fresh credentials from each of `faces`.
    static func generate(apiKey: String, faces: [any CompatibleFace]) -> IssuedCredentials {
        IssuedCredentials(apiKey: apiKey, faces: faces.map { ($0.name, $0.issueCredentials()) })
    }

    /// The value in clear of `face`'s credential `name`, as shown once.
    public subscript(face: String, name: String) -> String? {
        faces.first { $0.face == face }?.credentials.shown.first { $0.name == name }?.value
    }

    /// The one object `tacit apps create --json` prints (docs/api.md#applications-and-keys): the application,
    /// its API key, and an object per face with its credentials.
    public func json(for application: Application) -> String {
        var members: [String: JSONValue] = [
            "id": .string(application.id), "name": .string(application.name), "api_key": .string(apiKey),
        ]
        for (face, credentials) in faces {
            members[face] = .object(Dictionary(credentials.shown.map { ($0.name, JSONValue.string($0.value)) },
                                               uniquingKeysWith: { first, _ in first }))
        }
        return String(decoding: JSONText.object(members), as: UTF8.self)
    }

    /// What the store keeps of them.
    var stored: [FaceCredential] { faces.flatMap(\.credentials.stored) }
}
