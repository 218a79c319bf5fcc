import Foundation
import TacitCrypto

/// The JWT a Vonage application authenticates with, as Vonage's SDK makes it (vonage-jwt
/// `generate_application_jwt`): RS256 with the application's key, claims `application_id`,
/// `iat` (now), `jti` (a fresh UUID) and `exp` fifteen minutes on. A new token per request:
/// signing costs about a millisecond, and no token outlives the request it was made for.
enum VonageApplicationToken {
    static let lifetime: Int64 = 15 * 60

    static func claims(applicationId: String, now: Date, jti: String = UUID().uuidString.lowercased()) -> JWT.Claims {
        let issued = Int64(now.timeIntervalSince1970)
        return ["application_id": .string(applicationId), "iat": .int(issued), "jti": .string(jti),
                "exp": .int(issued + lifetime)]
    }

    /// `Authorization: Bearer <token>`.
    static func header(_ credentials: VonageApplicationCredentials, now: Date) throws(CryptoError) -> String {
        "Bearer " + (try JWT.sign(claims: claims(applicationId: credentials.applicationId, now: now),
                                  privateKey: credentials.privateKey))
    }
}
