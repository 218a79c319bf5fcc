import Foundation
import TacitCrypto
import TacitHTTP
import TacitServer

/// The `Authorization: Basic` credential Twilio's SDKs send on every request:
/// `account_sid:auth_token`.
struct TwilioBasicAuth: Sendable, Equatable {
    var accountSid: String
    var authToken: String

    /// nil when the header is absent or is not Basic over `user:password`.
    init?(_ request: HTTPRequest) {
        guard let value = request.header("authorization"), value.utf8.count < 1024 else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Base64.decode(parts[1].trimmingCharacters(in: .whitespaces)),
              let text = String(validating: decoded, as: UTF8.self),
              let colon = text.firstIndex(of: ":") else { return nil }
        accountSid = String(text[..<colon])
        authToken = String(text[text.index(after: colon)...])
        guard !accountSid.isEmpty, !authToken.isEmpty else { return nil }
    }
}
