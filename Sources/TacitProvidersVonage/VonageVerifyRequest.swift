import Foundation
import TacitCore
import TacitProviderKit

/// Verify v2's two calls for a silent check, as its API reference gives them: the start
/// with a one-step `silent_auth` workflow, and the code check. JSON both ways, the
/// application's RS256 JWT as the bearer token.
enum VonageVerifyRequest {
    static let path = "/v2/verify"
    /// Verify requires a brand. A silent check shows nothing to the person, so the brand
    /// never reaches a screen; Tacit's own name is as good as any.
    static let brand = "Tacit"

    /// `POST /v2/verify`. `coverage_check` asks Verify to refuse at once a number whose
    /// network it can't check, instead of issuing a check URL that can only fail later;
    /// `client_ref` brings its event callbacks back to the verification and step.
    static func start(_ settings: VonageVerifySettings, request: SilentCheckRequest, now: Date,
                      timeout: TimeInterval = 10) -> OutboundRequest? {
        guard let url = URL(string: settings.apiURL + path), let auth = try? settings.authorization(now: now) else {
            return nil
        }
        let digits = request.phoneNumber.hasPrefix("+") ? String(request.phoneNumber.dropFirst()) : request.phoneNumber
        let channel: JSONValue = .object(["channel": .string("silent_auth"), "to": .string(digits),
                                          "coverage_check": .bool(true)])
        var members: [(String, JSONValue)] = [("brand", .string(brand)), ("workflow", .array([channel]))]
        if let reference = VonageClientReference.text(verificationId: request.verificationId, step: request.step) {
            members.append(("client_ref", .string(reference)))
        }
        var writer = JSONWriter()
        writer.object(members)
        return OutboundRequest(method: "POST", url: url, headers: headers(auth), body: writer.bytes, timeout: timeout)
    }

    /// `POST /v2/verify/{request_id}` with the code the device's check URL ended with.
    static func check(_ settings: VonageVerifySettings, requestId: String, code: String, now: Date,
                      timeout: TimeInterval = 10) -> OutboundRequest? {
        guard isRequestId(requestId), isCode(code), let url = URL(string: settings.apiURL + path + "/" + requestId),
              let auth = try? settings.authorization(now: now) else { return nil }
        var writer = JSONWriter()
        writer.object([("code", .string(code))])
        return OutboundRequest(method: "POST", url: url, headers: headers(auth), body: writer.bytes, timeout: timeout)
    }

    private static func headers(_ auth: String) -> [(String, String)] {
        [("Authorization", auth), ("Content-Type", "application/json"), ("Accept", "application/json"),
         ("User-Agent", "tacit")]
    }

    /// Verify's request ids are UUIDs; anything else is not put in a path.
    static func isRequestId(_ text: String) -> Bool {
        (8...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isHexDigit || $0 == "-") }
    }

    /// Verify's codes: 4 to 10 letters and digits.
    static func isCode(_ text: String) -> Bool {
        (4...10).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
