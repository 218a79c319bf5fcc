import Foundation
import TacitCore
import TacitCrypto
import TacitStore

/// Where an application's Vonage callbacks go and how they are signed, read from its
/// settings at delivery (so `tacit apps set` reaches messages already queued): its
/// `vonage_callback_url`, and `Authorization: Bearer` with an HS256 JWT signed by its
/// signature secret, as Vonage signs them (verified with `jwt.decode(token, secret,
/// algorithms='HS256')`). The JWT's `payload_hash` binds it to the body.
struct VonageCallbackTargets: Sendable {
    let store: any ApplicationStore
    let fields: SealedFields

    struct Target: Sendable {
        var url: URL
        var secret: [UInt8]
    }

    static func owns(_ endpoint: String) -> Bool { endpoint.hasPrefix(VonageCallbackPayload.endpointPrefix) }

    /// The application's target, or nil when it has no callback URL or signature secret.
    func target(for endpoint: String) async -> Target? {
        let id = String(endpoint.dropFirst(VonageCallbackPayload.endpointPrefix.count))
        guard let settings = try? await store.application(id: id)?.settings, let text = settings.vonageCallbackURL,
              let url = URL(string: text), let sealed = settings.vonageSignatureSecretSealed,
              let secret = try? fields.open(sealed) else { return nil }
        return Target(url: url, secret: secret)
    }

    /// The headers of one attempt: the signed JWT, fresh per attempt.
    static func headers(_ message: OutboxMessage, secret: [UInt8], now: Date) -> [(String, String)] {
        let issued = Int64(now.timeIntervalSince1970)
        let claims: JWT.Claims = ["iat": .int(issued), "exp": .int(issued + 300), "jti": .string(message.id + "." + String(issued)),
                                  "iss": "Tacit", "payload_hash": .string(Hex.encode(SHA256.hash(message.payload)))]
        return [("Content-Type", "application/json"), ("User-Agent", "Tacit-Webhooks/1"),
                ("Authorization", "Bearer " + JWT.sign(claims: claims, secret: secret))]
    }
}
