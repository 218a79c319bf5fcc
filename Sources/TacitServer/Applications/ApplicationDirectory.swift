import Foundation
import TacitCrypto
import TacitStore

/// How a drop-in face finds the application a credential acts for: by one of its public
/// identifiers (a JWT's application claim, a Basic user name), and where the credential
/// carries a secret, by that secret's hash among the face's records too.
///
/// A secret is hashed and compared in constant time whether or not its identifier is
/// known, and an unknown identifier, a wrong secret and a revoked application all answer
/// nil, in the same work: a caller learns only that the credential is no good.
public struct ApplicationDirectory: Sendable {
    let store: any ApplicationStore

    public init(store: any ApplicationStore) {
        self.store = store
    }

    /// The live application whose `face` identifier `name` is `value`, with its records of that face.
    public func application(face: String, identifier name: String, value: String) async throws
        -> (Application, [FaceCredential])? {
        guard let found = try await store.application(face: face, identifier: name, value: value),
              !found.0.isRevoked else { return nil }
        return found
    }

    /// The live application whose `face` identifier `name` is `value` and whose secret
    /// record `secretName` is the hash of `secret` for `purpose` (`CredentialHash`).
    public func application(face: String, identifier name: String, value: String, secret: String,
                            secretName: String, purpose: String) async throws -> (Application, [FaceCredential])? {
        let found = try await store.application(face: face, identifier: name, value: value)
        let expected = found?.1.named(secretName)?.bytes ?? CredentialHash.absent
        let matches = ConstantTime.equals(CredentialHash.of(secret, purpose: purpose), expected)
        guard matches, let found, !found.0.isRevoked else { return nil }
        return found
    }

    /// The records the application keeps for `face`.
    public func credentials(of application: String, face: String) async throws -> [FaceCredential] {
        try await store.faceCredentials(application: application, face: face)
    }
}
