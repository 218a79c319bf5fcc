import Foundation
import TacitHTTP
import TacitProviderKit

/// `POST /v1/callbacks/twilio`: Twilio's message and call status callbacks, signed with
/// `X-Twilio-Signature` under the account's auth token (`TACIT_TWILIO_AUTH_TOKEN`). Until
/// the token is set the route answers 404, so nothing unsigned is ever accepted.
public struct TwilioCallbackRoute: ProviderCallback {
    /// The path Tacit hands Twilio as the status callback URL's.
    public static let path = "/v1/callbacks/twilio"
    /// How long a signature is remembered against replays: Twilio signs no time.
    static let replayWindow: TimeInterval = 24 * 3600

    /// The auth token Twilio signs with; nil answers 404.
    public var authToken: String?

    /// The route verifying with `authToken`.
    public init(authToken: String?) {
        self.authToken = authToken
    }

    /// The route verifying with `TACIT_TWILIO_AUTH_TOKEN`, as given.
    public init(_ settings: ProviderSettings) {
        authToken = settings.values[TwilioSettings.authTokenSetting].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// ``path``, as the protocol asks.
    public var path: String { Self.path }

    /// Verifies the request with the secret and reads its report.
    public func read(_ request: HTTPRequest, context: CallbackContext) throws(CallbackRejection) -> CallbackReading {
        guard let authToken else { throw .unconfigured }
        let url = TwilioCallback.signedURL(base: context.baseURL, path: request.path, query: request.query)
        let callback = try TwilioCallback(signature: request.header("x-twilio-signature"), url: url,
                                          query: request.query, body: request.body, authToken: authToken)
        return CallbackReading(.delivery(callback.report), replayKey: callback.replayKey,
                               replayExpiresAt: context.now.addingTimeInterval(Self.replayWindow))
    }
}
