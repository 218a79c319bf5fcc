import Foundation
import TacitCore
import TacitCrypto
import TacitHTTP

/// How the check_url round trip ends for the face that started the verification, once
/// the network has matched the SIM. One mechanism for all: the match puts a code's keyed
/// hash in the step's slot, and a check presenting that code completes the step. What
/// differs is the code and who gets it:
/// - `/v1` hands the device a long `sa_` token, in `{"request_id", "code"}`;
/// - Vonage's check takes 4 to 10 letters and digits, so a verification started through
///   the Vonage face gets 10 of them (about 59 bits, with the one try Vonage allows a silent-auth code), the same way;
/// - Twilio's SNA hands nothing to the device: its backend then asks with a
///   VerificationCheck without a code, so the code is derived from the server's check key,
///   never leaves the server, and the flow keeps no copy.
enum SilentEnding: Sendable, Equatable {
    case v1
    case vonage
    case twilio

    init(face: String) {
        switch face {
        case Verification.vonageFace: self = .vonage
        case TwilioFace.name: self = .twilio
        default: self = .v1
        }
    }

    /// Whether the device receives the code (false: the face's backend presents it).
    var handsCodeToDevice: Bool { self != .twilio }

    /// The code the match issues for `check`.
    func code(for check: CheckToken, keys: SilentKeys) throws(CryptoError) -> String {
        switch self {
        case .v1: Token.generate(prefix: "sa_", bytes: 16)
        case .vonage: Self.alphanumerics(10)
        case .twilio: try keys.heldCode(verificationId: check.verificationId, step: check.step)
        }
    }

    /// What the device's last hop answers once the code is in place.
    func answer(verificationId: String, code: String) -> HTTPResponse {
        let body: [String: JSONValue] = handsCodeToDevice
            ? ["request_id": .string(verificationId), "code": .string(code)]
            : ["request_id": .string(verificationId), "status": .string("success")]
        return .json(bytes: JSONText.object(body), headers: [("Cache-Control", "no-store")])
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// `count` letters and digits, each drawn without bias from a CSPRNG (bytes of 248 and
    /// above are dropped, so every letter is equally likely).
    static func alphanumerics(_ count: Int) -> String {
        var text = ""
        while text.count < count {
            for byte in SecureRandom.bytes(count * 2) where byte < 248 && text.count < count {
                text.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return text
    }
}

extension SilentKeys {
    /// The Twilio ending's code for a verification's silent step, from the check key:
    /// unguessable without the server's secret, and the same each time it is derived.
    func heldCode(verificationId: String, step: Int) throws(CryptoError) -> String {
        "sa_" + Base64.urlEncode(try latchMAC.authenticate(Array("held:\(verificationId):\(step)".utf8)))
    }
}
