import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP

/// How the check_url round trip ends for the face that started the verification, once
/// the network has matched the SIM (`FaceRules.silentEnding`). One mechanism for all: the
/// match puts a code's keyed hash in the step's slot, and a check presenting that code
/// completes the step. What differs is the code and who gets it:
/// - `token`, `/v1`'s: the device gets a long `sa_` token, in `{"request_id", "code"}`;
/// - `alphanumerics(n)`: for a face whose check takes a short code, the device gets `n`
///   letters and digits the same way (10 of them hold about 59 bits);
/// - `held`: for a face whose backend then checks without a code, nothing goes to the
///   device; the code is derived from the server's check key, never leaves the server,
///   and the flow keeps no copy.
public enum SilentEnding: Sendable, Equatable {
    case token
    case alphanumerics(Int)
    case held

    /// Whether the device receives the code (false: the face's backend presents it).
    var handsCodeToDevice: Bool { self != .held }

    /// The code the match issues for `check`.
    func code(for check: CheckToken, keys: SilentKeys) throws(CryptoError) -> String {
        switch self {
        case .token: Token.generate(prefix: "sa_", bytes: 16)
        case .alphanumerics(let count): SecureRandom.alphanumerics(count)
        case .held: try keys.heldCode(verificationId: check.verificationId, step: check.step)
        }
    }

    /// What the device's last hop answers once the code is in place.
    func answer(verificationId: String, code: String) -> HTTPResponse {
        let body: [String: JSONValue] = handsCodeToDevice
            ? ["request_id": .string(verificationId), "code": .string(code)]
            : ["request_id": .string(verificationId), "status": .string("success")]
        return .json(bytes: JSONText.object(body), headers: [("Cache-Control", "no-store")])
    }
}

extension SilentKeys {
    /// The `held` ending's code for a verification's silent step, from the check key:
    /// unguessable without the server's secret, and the same each time it is derived.
    public func heldCode(verificationId: String, step: Int) throws(CryptoError) -> String {
        "sa_" + Base64.urlEncode(try latchMAC.authenticate(Array("held:\(verificationId):\(step)".utf8)))
    }
}
