import Foundation
import TacitCore

/// The two Verify v2 calls of Silent Network Auth, as Twilio's own SDK sends them:
/// form-encoded, HTTP Basic with the account SID and auth token.
enum TwilioVerifyRequest {
    /// `POST /v2/Services/{VA…}/Verifications` with `To` and `Channel=sna`.
    static func create(_ settings: TwilioVerifySettings, to: String, timeout: TimeInterval = 10) -> OutboundRequest? {
        make(settings, resource: "Verifications", fields: [("To", to), ("Channel", "sna")], timeout: timeout)
    }

    /// `POST /v2/Services/{VA…}/VerificationCheck` with `To` and no `Code`: an SNA check's
    /// verdict is Twilio's, from the carrier, and the device has no code to give.
    static func check(_ settings: TwilioVerifySettings, to: String, timeout: TimeInterval = 10) -> OutboundRequest? {
        make(settings, resource: "VerificationCheck", fields: [("To", to)], timeout: timeout)
    }

    private static func make(_ settings: TwilioVerifySettings, resource: String, fields: [(String, String)],
                             timeout: TimeInterval) -> OutboundRequest? {
        guard let url = URL(string: "\(settings.verifyURL)/v2/Services/\(settings.serviceSid)/\(resource)") else {
            return nil
        }
        let credentials = Data("\(settings.accountSid):\(settings.authToken)".utf8).base64EncodedString()
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", "Basic \(credentials)"),
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(TwilioRequest.encode(fields).utf8), timeout: timeout)
    }
}
