import Foundation
import TacitCore

/// The endpoints read from the issuer's OpenID Provider Metadata (OIDC Discovery §3).
struct CamaraMetadata: Sendable, Equatable {
    var authorizationEndpoint: String
    var tokenEndpoint: URL
    /// The CIBA `bc-authorize` endpoint; nil when the operator offers no CIBA.
    var backchannelEndpoint: URL?

    /// nil unless the document names this issuer (Discovery §4.3: a document for another
    /// issuer must not be used) and its endpoints are http(s) URLs.
    init?(_ body: [String: JSONValue], issuer: String) {
        guard let named = body["issuer"]?.stringValue, CamaraSettings.trimmed(named) == issuer,
              let authorize = body["authorization_endpoint"]?.stringValue, Self.isHTTP(authorize),
              let token = body["token_endpoint"]?.stringValue, Self.isHTTP(token),
              let tokenURL = URL(string: token) else { return nil }
        authorizationEndpoint = authorize
        tokenEndpoint = tokenURL
        backchannelEndpoint = body["backchannel_authentication_endpoint"]?.stringValue.flatMap {
            Self.isHTTP($0) ? URL(string: $0) : nil
        }
    }

    private static func isHTTP(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        return ["http", "https"].contains(scheme) && url.host != nil
    }
}
