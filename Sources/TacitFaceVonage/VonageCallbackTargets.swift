import Foundation
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore

/// Where an application's Vonage callbacks go and how they are signed, read from its
/// records at delivery (so `tacit apps set` reaches messages already queued): its
/// callback URL, and `Authorization: Bearer` with an HS256 JWT signed by its
/// signature secret, as Vonage signs them (verified with `jwt.decode(token, secret,
/// algorithms='HS256')`). The JWT's `payload_hash` binds it to the body.
struct VonageCallbackTargets: Sendable {
    let directory: ApplicationDirectory
    let fields: SealedFields

    struct Target: Sendable {
        var url: URL
        var secret: [UInt8]
    }

    /// The application's target, or nil when it has no callback URL or signature secret.
    func target(for application: String) async -> Target? {
        guard let records = try? await directory.credentials(of: application, face: VonageFace.name),
              let text = records.named(VonageFace.Record.callbackURL)?.text, let url = URL(string: text),
              let sealed = records.named(VonageFace.Record.signatureSecret)?.bytes,
              let secret = try? fields.open(sealed) else { return nil }
        return Target(url: url, secret: secret)
    }

    /// The headers of one attempt: the signed JWT, fresh per attempt.
    static func headers(_ message: OutboxMessage, secret: [UInt8], now: Date) -> [(String, String)] {
        let issued = Int64(now.timeIntervalSince1970)
        let claims: JWT.Claims = ["iat": .int(issued), "exp": .int(issued + 300),
                                  "jti": .string(message.id + "." + String(issued)),
                                  "iss": "Tacit", "payload_hash": .string(Hex.encode(SHA256.hash(message.payload)))]
        return [("Content-Type", "application/json"), ("User-Agent", "Tacit-Webhooks/1"),
                ("Authorization", "Bearer " + JWT.sign(claims: claims, secret: secret))]
    }
}
