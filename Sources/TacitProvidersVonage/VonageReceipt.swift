import Foundation
import TacitCore
import TacitCrypto
import TacitProviderKit

/// Verifies a Vonage SMS API delivery receipt, as Vonage sends it with signed webhooks on:
/// `msisdn, to, network-code, messageId, price, status, scts, err-code, api-key,
/// message-timestamp, client-ref` plus `timestamp`, `nonce` and `sig`, form-encoded or JSON
/// in a POST (the account's "POST" or "POST-JSON" setting). `sig` covers every other
/// parameter, so `timestamp` is signed: a receipt outside the window is refused as stale,
/// and one inside it is remembered by its signature until the window closes.
struct VonageReceipt {
    /// The SMS API's final failures; `accepted`, `buffered` and `unknown` are progress.
    static let failures: Set<String> = ["expired", "failed", "rejected"]
    static let deliveries: Set<String> = ["delivered"]

    var report: ProviderReport
    var replayKey: String
    var replayExpiresAt: Date

    init(parameters: [(name: String, value: String)], secret: String, method: VonageSignature.Method,
         now: Date, maxAge: TimeInterval) throws(CallbackRejection) {
        let fields = Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let signature = fields["sig"], !signature.isEmpty,
              VonageSignature.isValid(signature, parameters: parameters, secret: secret, method: method) else {
            throw .badSignature
        }
        // Vonage signs the Unix time in seconds; the same skew as a JWT's is allowed either way.
        guard let stamp = fields["timestamp"].flatMap(TimeInterval.init), stamp.isFinite,
              abs(now.timeIntervalSince1970 - stamp) <= maxAge + JWT.allowedClockSkew else { throw .stale }
        replayKey = "vonage-sms:" + Hex.encode(SHA256.hash(signature.lowercased()))
        replayExpiresAt = Date(timeIntervalSince1970: stamp + maxAge + JWT.allowedClockSkew)
        guard let status = fields["status"] else { throw .malformed }
        // `err-code` 0 is "delivered"; any other is the reason a message failed.
        let error = fields["err-code"].flatMap { Int($0) == 0 ? nil : $0 }
        let reference = fields["client-ref"].flatMap(CallbackReference.init)
        // `network-code` is the MCC and MNC of the network that took the message; the report
        // drops it unless it is 5 or 6 digits (docs/fraud.md#mobile-networks).
        report = ProviderReport(provider: VonageProvider.name, reference: reference, status: status,
                                failures: Self.failures, deliveries: Self.deliveries,
                                messageId: fields["messageId"], errorCode: error,
                                network: fields["network-code"])
            .priced(fields["price"], currency: VonageProvider.priceCurrency)
    }

    /// Whether a request is an SMS API receipt rather than a Messages API callback: it carries
    /// no Bearer token. Such a request without `sig` is still a receipt, and is refused unsigned.
    static func isReceipt(authorization: String?) -> Bool {
        !(authorization?.lowercased().hasPrefix("bearer ") ?? false)
    }

    /// The receipt's parameters from a form-encoded or JSON body, after any in the query.
    /// JSON numbers and booleans are signed as Vonage writes them in a form.
    static func parameters(query: [String: String], body: [UInt8],
                           contentType: String?) throws(CallbackRejection) -> [(name: String, value: String)] {
        var parameters = query.map { (name: $0.key, value: $0.value) }
        guard !body.isEmpty else { return parameters }
        if (contentType ?? "").lowercased().hasPrefix("application/json") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw .malformed
            }
            for (name, value) in object {
                switch value {
                case let text as String: parameters.append((name, text))
                case let number as NSNumber: parameters.append((name, number.stringValue))
                default: throw .malformed
                }
            }
        } else {
            parameters += FormBody.pairs(body)
        }
        return parameters
    }
}
