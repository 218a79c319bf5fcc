import Foundation
import TacitCrypto
import TacitStore

/// How the drop-in faces find the application a credential acts for: by Vonage
/// `application_id` (the JWT's claim; the face then checks the JWT with the application's
/// public key), by Vonage `api_key` and `api_secret`, or by Twilio `account_sid` and
/// `auth_token` (and the `service_sid` in the path).
///
/// A secret is hashed and compared in constant time whether or not its public id is known,
/// and an unknown id, a wrong secret and a revoked application all answer nil, in the same
/// work: a caller learns only that the credential is no good.
public struct ApplicationDirectory: Sendable {
    let store: any ApplicationStore

    public init(store: any ApplicationStore) {
        self.store = store
    }

    /// The application a Vonage JWT's `application_id` names, unless revoked.
    public func vonage(applicationId: String) async throws -> Application? {
        guard let (application, _) = try await store.application(matching: .vonageApplication(applicationId)),
              !application.isRevoked else { return nil }
        return application
    }

    /// The application whose Vonage `api_key` and `api_secret` these are.
    public func vonage(apiKey: String, apiSecret: String) async throws -> Application? {
        let found = try await store.application(matching: .vonageAPIKey(apiKey))
        return Self.verified(found, presented: CredentialHash.of(apiSecret, purpose: CredentialHash.vonageSecret),
                             stored: \.vonageAPISecretHash)
    }

    /// The application whose Twilio `account_sid` and `auth_token` these are; when
    /// `serviceSid` is given, it must be that application's Verify service too.
    public func twilio(accountSid: String, authToken: String, serviceSid: String? = nil) async throws -> Application? {
        let found = try await store.application(matching: .twilioAccount(accountSid))
        guard let application = Self.verified(found, presented: CredentialHash.of(authToken, purpose: CredentialHash.twilioToken),
                                              stored: \.twilioAuthTokenHash) else { return nil }
        if let serviceSid, let credentials = found?.1, !ConstantTime.equals(serviceSid, credentials.twilioServiceSid) { return nil }
        return application
    }

    /// The application when `presented` matches its stored hash and it is not revoked.
    /// The comparison runs even when nothing was found, against a hash no secret has.
    private static func verified(_ found: (Application, ApplicationCredentials)?, presented: [UInt8],
                                 stored: KeyPath<ApplicationCredentials, [UInt8]>) -> Application? {
        let expected = found.map { $0.1[keyPath: stored] } ?? CredentialHash.absent
        let matches = ConstantTime.equals(presented, expected)
        guard matches, let (application, _) = found, !application.isRevoked else { return nil }
        return application
    }
}
