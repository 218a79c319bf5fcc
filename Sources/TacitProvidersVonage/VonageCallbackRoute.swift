import Foundation
import TacitCrypto
import TacitHTTP
import TacitProviderKit

/// `POST /v1/callbacks/vonage`, where every Vonage report arrives: a Messages or Voice API
/// callback (`Authorization: Bearer <JWT HS256>` signed with the signature secret), a
/// Verify v2 silent-auth event (signed the same way), or an SMS API delivery receipt (a
/// `sig` parameter under the account's signature method). Until the signature secret
/// (`TACIT_VONAGE_SIGNATURE_SECRET`) is set the route answers 404, so nothing unsigned is
/// ever accepted.
public struct VonageCallbackRoute: ProviderCallback {
    /// The path Tacit hands Vonage as its callback URL's.
    public static let path = "/v1/callbacks/vonage"
    /// The secret Vonage signs callbacks with, as given in its dashboard.
    public static let signatureSecretSetting = "TACIT_VONAGE_SIGNATURE_SECRET"
    /// The account's signature method for SMS API receipts.
    public static let signatureMethodSetting = "TACIT_VONAGE_SIGNATURE_METHOD"
    /// How old a signed callback (`iat`, `timestamp`) may be.
    static let maxAge: TimeInterval = 300

    /// The signature secret; nil answers 404.
    public var secret: String?
    /// The account's signature method for SMS API receipts (the dashboard's default is `md5hash`).
    public var method: VonageSignature.Method

    /// The route verifying with `secret`, and SMS API receipts under `method`.
    public init(secret: String?, method: VonageSignature.Method = .md5hash) {
        self.secret = secret
        self.method = method
    }

    /// The route verifying with `TACIT_VONAGE_SIGNATURE_SECRET` as given, and receipts under
    /// `TACIT_VONAGE_SIGNATURE_METHOD` (md5hash unless set); throws for an unknown method.
    public init(_ settings: ProviderSettings) throws(ProviderSetupError) {
        secret = settings.values[Self.signatureSecretSetting].flatMap { $0.isEmpty ? nil : $0 }
        method = .md5hash
        if let name = settings.values[Self.signatureMethodSetting], !name.isEmpty {
            guard let known = VonageSignature.Method(rawValue: name.lowercased()) else {
                throw ProviderSetupError(setting: Self.signatureMethodSetting,
                                         problem: "one of md5hash, md5, sha1, sha256, sha512")
            }
            method = known
        }
    }

    /// ``path``, as the protocol asks.
    public var path: String { Self.path }

    /// Verifies the request with the secret and reads its report.
    public func read(_ request: HTTPRequest, context: CallbackContext) throws(CallbackRejection) -> CallbackReading {
        guard let secret else { throw .unconfigured }
        let authorization = request.header("authorization")
        if VonageReceipt.isReceipt(authorization: authorization) {
            let parameters = try VonageReceipt.parameters(query: request.query, body: request.body,
                                                          contentType: request.header("content-type"))
            let receipt = try VonageReceipt(parameters: parameters, secret: secret, method: method, now: context.now,
                                            maxAge: Self.maxAge)
            return CallbackReading(.delivery(receipt.report), replayKey: receipt.replayKey,
                                   replayExpiresAt: receipt.replayExpiresAt)
        }
        let signed = try VonageCallback(authorization: authorization, body: request.body, secret: secret,
                                        now: context.now, maxAge: Self.maxAge, queryReference: request.query["ref"])
        let silent = VonageSilentEvent(body: request.body)
        let content: CallbackReading.Content = silent.map { .silentStatus($0.silentStatus) } ?? .delivery(signed.report)
        return CallbackReading(content, replayKey: signed.replayKey, replayExpiresAt: signed.replayExpiresAt)
    }
}
