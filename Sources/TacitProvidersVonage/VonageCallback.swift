import Foundation
import TacitCore
import TacitCrypto
import TacitProviderKit

/// Verifies a Vonage-style signed callback: `Authorization: Bearer <JWT HS256>` signed with
/// the signature secret, whose `payload_hash` claim is the SHA-256 hex of the body and whose
/// `iat` is recent. Then reads the message status (Messages and Voice API shapes). A Voice
/// API event names no `client_ref`: its step comes from the event URL's `ref` parameter,
/// which Tacit set when it placed the call.
struct VonageCallback {
    static let failures: Set<String> = [
        "rejected", "undeliverable", "failed", "busy", "unanswered", "timeout", "cancelled", "expired",
    ]
    static let deliveries: Set<String> = ["delivered", "read", "answered", "completed"]

    /// The report, and the key that must not be seen twice while the token is valid.
    var report: ProviderReport
    var replayKey: String
    var replayExpiresAt: Date

    init(authorization: String?, body: [UInt8], secret: String, now: Date, maxAge: TimeInterval,
         queryReference: String? = nil) throws(CallbackRejection) {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { throw .badSignature }
        let token = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        let claims: JWT.Claims
        do { claims = try JWT.verify(token: token, secret: Array(secret.utf8), now: now, maxAge: maxAge) }
        catch { throw error == .stale || error == .expired ? .stale : .badSignature }
        guard let hash = claims["payload_hash"]?.stringValue,
              ConstantTime.equals(Array(hash.lowercased().utf8), Array(Hex.encode(SHA256.hash(body)).utf8)) else {
            throw .badSignature
        }
        let issued = TimeInterval(claims["iat"]?.intValue ?? Int64(now.timeIntervalSince1970))
        // The signature covers the header and the claims as sent; keyed on them (or on the
        // signed `jti`), another spelling of the signature's own base64 is no new callback.
        let signed = token.split(separator: ".", omittingEmptySubsequences: false).prefix(2).joined(separator: ".")
        replayKey = "vonage:" + Hex.encode(SHA256.hash(claims["jti"]?.stringValue ?? signed))
        replayExpiresAt = Date(timeIntervalSince1970: issued + maxAge + JWT.allowedClockSkew)
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(body)) else {
            throw .malformed
        }
        let clientRef = object["client_ref"].flatMap {
            if case .string(let text) = $0 { CallbackReference(text) } else { nil }
        }
        let reference = clientRef ?? queryReference.flatMap(CallbackReference.init)
        guard case .string(let status)? = object["status"] else { throw .malformed }
        let uuid = object["message_uuid"] ?? object["uuid"]
        report = ProviderReport(provider: VonageProvider.name, reference: reference, status: status,
                                failures: Self.failures, deliveries: Self.deliveries,
                                messageId: uuid.flatMap { if case .string(let id) = $0 { id } else { nil } },
                                errorCode: Self.errorCode(object["error"]))
    }

    /// The Messages API's reason for a failed message: the digits after `#` in `error.type`
    /// (`…/api-errors/messages#1340`). Its `title` and `detail` are never kept: they may quote the number.
    static func errorCode(_ error: JSONValue?) -> String? {
        guard case .object(let fields)? = error, case .string(let type)? = fields["type"],
              let mark = type.lastIndex(of: "#") else { return nil }
        return String(type[type.index(after: mark)...])
    }
}
