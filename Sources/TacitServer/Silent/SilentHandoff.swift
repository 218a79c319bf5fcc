import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP

/// Who receives the silent code once the network has matched the SIM. `/v1` and the
/// Vonage face hand it to the device, which submits it (the check URL ends in
/// `{request_id, code}`). Twilio's SNA hands nothing to the device: its backend then asks
/// with a VerificationCheck without a code. Both are one mechanism: the match puts a
/// code's keyed hash in the step's slot, and a check presenting that code completes the
/// step. For the backend the code is derived from the server's check key, so it never
/// leaves the server and the flow keeps no copy.
enum SilentHandoff: Sendable, Equatable {
    case device
    case backend

    /// The faces whose backend, not the device, completes the silent step.
    init(face: String) {
        self = face == TwilioFace.name ? .backend : .device
    }

    /// The code the match issues for `check`: random for the device, derived for the backend.
    func code(for check: CheckToken, keys: SilentKeys) throws(CryptoError) -> String {
        switch self {
        case .device: Token.generate(prefix: "sa_", bytes: 16)
        case .backend: try keys.heldCode(verificationId: check.verificationId, step: check.step)
        }
    }

    /// What the device's last hop answers once the code is in place.
    func answer(verificationId: String, code: String) -> HTTPResponse {
        let body: [String: JSONValue] = switch self {
        case .device: ["request_id": .string(verificationId), "code": .string(code)]
        case .backend: ["request_id": .string(verificationId), "status": .string("success")]
        }
        return .json(bytes: JSONText.object(body), headers: [("Cache-Control", "no-store")])
    }
}

extension SilentKeys {
    /// The backend handoff's code for a verification's silent step, from the check key:
    /// unguessable without the server's secret, and the same each time it is derived.
    func heldCode(verificationId: String, step: Int) throws(CryptoError) -> String {
        "sa_" + Base64.urlEncode(try latchMAC.authenticate(Array("held:\(verificationId):\(step)".utf8)))
    }
}
