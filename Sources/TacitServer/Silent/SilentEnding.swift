import Foundation
import TacitCore
import TacitCrypto

/// How the check_url round trip ends for the face that started the verification. The
/// body is `{"request_id", "code"}` for every face (the request id is the verification's
/// own, whatever its shape); what differs is the code's form: `/v1` hands out a long
/// `sa_` token, while Vonage's check takes 4 to 10 letters and digits, so a verification
/// started through the Vonage face gets 10 of them (about 59 bits, with three tries).
enum SilentEnding: Sendable {
    case v1
    case vonage

    init(face: String) {
        self = face == Verification.vonageFace ? .vonage : .v1
    }

    func makeCode() -> String {
        switch self {
        case .v1: return Token.generate(prefix: "sa_", bytes: 16)
        case .vonage: return Self.alphanumerics(10)
        }
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
