import Foundation
import TacitCrypto

/// Ties a check's verdict to the device that opened its check URL. When the check URL
/// is first opened, Tacit sets a cookie on that device, path-scoped to the callback: 16
/// random bytes and a keyed tag over them and the check. The device's HTTP stack sends
/// it back at the end of the redirect chain, as a browser does for an OAuth client's
/// `state` (RFC 6749 §10.12). A verdict that arrives without it was carried by someone
/// else (a leaked callback URL, a link forwarded to another phone) and is refused.
///
/// Only the first opening of a check URL gets a cookie (a second one fails the step as a
/// replay), so a valid tag names one device. Nothing is stored: the tag is checked
/// against the sealed check token the verdict's `state` names.
struct DeviceBinding: Sendable {
    let mac: HMAC.SHA256Key

    /// The cookie's name for `check`: its own per check, so a device running two
    /// checks at once keeps both.
    func cookieName(_ check: CheckToken) throws(CryptoError) -> String {
        "tacit_silent_" + Base64.urlEncode(Array(try mac.authenticate(message(check, "name")).prefix(6)))
    }

    /// A fresh cookie value for the opening of `check`.
    func issue(_ check: CheckToken) throws(CryptoError) -> String {
        let random = SecureRandom.bytes(16)
        return Base64.urlEncode(random + (try tag(random, check)))
    }

    /// The `Set-Cookie` line for `value`: only the callback sees it, no script reads it,
    /// it dies with the check, and it is `Secure` wherever the server is reached by https.
    func setCookie(_ check: CheckToken, value: String, now: Date, secure: Bool) throws(CryptoError) -> String {
        let seconds = max(1, Int(check.expiresAt.timeIntervalSince(now).rounded(.up)))
        let attributes = ["Path=" + CheckURLIssuer.callbackPath, "Max-Age=\(seconds)", "HttpOnly", "SameSite=Lax"]
        return ([try cookieName(check) + "=" + value] + attributes + (secure ? ["Secure"] : [])).joined(separator: "; ")
    }

    /// True when the request's `Cookie` header holds a value issued for `check`.
    func isPresent(in cookieHeader: String?, for check: CheckToken) -> Bool {
        guard let cookieHeader, let name = try? cookieName(check) else { return false }
        for pair in cookieHeader.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == name, let bytes = Base64.urlDecode(parts[1]), bytes.count == 48 else {
                continue
            }
            if let expected = try? tag(Array(bytes.prefix(16)), check),
               ConstantTime.equals(expected, Array(bytes.suffix(32))) {
                return true
            }
        }
        return false
    }

    private func tag(_ random: [UInt8], _ check: CheckToken) throws(CryptoError) -> [UInt8] {
        try mac.authenticate(message(check, "device") + random)
    }

    private func message(_ check: CheckToken, _ purpose: String) -> [UInt8] {
        Array("\(purpose):\(check.verificationId):\(check.step):".utf8) + check.nonce
    }
}
