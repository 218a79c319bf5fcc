import Foundation
import TacitCore
import TacitHTTP

/// The three request shapes CAMARA endpoints take: a form POST to the authorization
/// server, a JSON POST with a bearer token to a network API, and the discovery GET.
enum CamaraWire {
    static let timeout: TimeInterval = 10

    static func form(_ fields: [(String, String)], to url: URL) -> OutboundRequest {
        let body = fields.map { QueryString.encode($0.0) + "=" + QueryString.encode($0.1) }.joined(separator: "&")
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
            ("User-Agent", "tacit"),
        ], body: Array(body.utf8), timeout: timeout)
    }

    /// `x-correlator` lets the operator's support find the call; it is Tacit's, not the user's.
    static func json(
        _ members: [(String, JSONValue)], to url: URL, token: String, correlator: String
    ) -> OutboundRequest {
        var writer = JSONWriter()
        writer.object(members)
        return OutboundRequest(method: "POST", url: url, headers: [
            ("Authorization", "Bearer " + token), ("Content-Type", "application/json"), ("Accept", "application/json"),
            ("x-correlator", correlator), ("User-Agent", "tacit"),
        ], body: writer.bytes, timeout: timeout)
    }

    static func get(_ url: URL) -> OutboundRequest {
        OutboundRequest(method: "GET", url: url, headers: [("Accept", "application/json"), ("User-Agent", "tacit")],
                        timeout: timeout)
    }

    /// The answer's JSON object; nil for anything else.
    static func object(_ response: OutboundResponse) -> [String: JSONValue]? {
        (try? JSONParser.parse(response.body))?.objectValue
    }

    /// CAMARA's error `code` (`{status, code, message}`), or OAuth's `error`.
    static func errorCode(_ response: OutboundResponse) -> String? {
        let body = object(response)
        return body?["code"]?.stringValue ?? body?["error"]?.stringValue
    }
}
