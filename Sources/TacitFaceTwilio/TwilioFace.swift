import Foundation
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore

/// The Twilio Verify v2 face (docs/compatible-apis.md#twilio-verify-v2), plugged in
/// through `CompatibleFace`, and the names and shapes its files share: its ids, its
/// channels and its limits, as Twilio documents them. Its records per application are
/// Twilio's `account_sid` and Verify `service_sid` (identifiers) and the `auth_token`'s hash.
public struct TwilioFace: CompatibleFace {
    /// What a verification started here records as its face (timeline, console, `/v1`).
    public static let name = "twilio"
    public var name: String { Self.name }

    public init() {}

    /// Twilio's limits are `/v1`'s: five checks. A silent (SNA) step hands the device
    /// nothing: the app's backend then checks without a code.
    public var rules: FaceRules { FaceRules(silentEnding: .held) }

    /// The records' names.
    enum Record {
        static let accountSid = "account_sid"
        static let authToken = "auth_token"
        static let serviceSid = "service_sid"
    }

    /// The hash purpose of the `auth_token`, which keeps it apart from other faces' secrets.
    static let tokenPurpose = "twilio-auth-token"

    /// Fresh credentials in the shapes Twilio's SDKs expect: `AC`, `VA` and 32 hex digits.
    public func issueCredentials() -> IssuedFaceCredentials {
        let account = "AC" + Hex.encode(SecureRandom.bytes(16)), token = Hex.encode(SecureRandom.bytes(16))
        let service = "VA" + Hex.encode(SecureRandom.bytes(16))
        return IssuedFaceCredentials(
            stored: [
                FaceCredential(face: Self.name, name: Record.accountSid, kind: .identifier, text: account),
                FaceCredential(face: Self.name, name: Record.authToken, kind: .secretHash,
                               bytes: CredentialHash.of(token, purpose: Self.tokenPurpose)),
                FaceCredential(face: Self.name, name: Record.serviceSid, kind: .identifier, text: service),
            ],
            shown: [(Record.accountSid, account), (Record.authToken, token), (Record.serviceSid, service)])
    }

    public func serve(in context: FaceContext) -> any ServedFace {
        TwilioServedFace(context: context)
    }

    /// The face's OpenAPI document, served at `TwilioRoutes.openAPIPath`.
    static let document: [UInt8]? = Bundle.module.url(forResource: "openapi-twilio", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }.map { Array($0) }
    /// Twilio's verifications live 10 minutes; each send starts the clock again.
    static let defaultTimeout = 600
    /// Twilio's limit on sends per verification: the sixth answers 60203.
    static let maxSends = 5

    /// Verification sids as Twilio makes them, `VE` and 32 hex digits: here 48 bits of
    /// milliseconds first, then 80 random bits, so they sort by creation time like
    /// `IDGenerator.timeOrdered` and store indexes stay append-only. The face mints the
    /// verification's own id this way, so `/v1`, the console and the timeline use it too.
    static func verificationSids(now: @escaping @Sendable () -> Date) -> IDGenerator {
        IDGenerator {
            let milliseconds = UInt64(max(0, now().timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
            let time = String(milliseconds, radix: 16)
            return "VE" + String(repeating: "0", count: 12 - time.count) + time + Hex.encode(SecureRandom.bytes(10))
        }
    }

    /// Whether `text` has the shape of a verification sid (so anything else is never looked up).
    static func isVerificationSid(_ text: String) -> Bool {
        text.utf8.count == 34 && text.hasPrefix("VE") && text.utf8.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// A send attempt's sid, `VL` and 32 hex digits, the same every time it is read:
    /// derived from the verification's sid and the attempt's place among its steps.
    static func attemptSid(_ verificationSid: String, index: Int) -> String {
        "VL" + Hex.encode(Array(SHA256.hash(Array("\(verificationSid):\(index)".utf8)).prefix(16)))
    }

    /// Twilio's dates: seconds, no fraction (`2015-07-30T20:00:00Z`).
    static func date(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return text.count > 20 ? String(text.prefix(19)) + "Z" : text
    }
}

extension UInt8 {
    var isHexDigit: Bool { (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self) }
}

/// Twilio's channel names onto Tacit's steps: `call` is a voice call, `sna` the silent step.
enum TwilioChannel: String, Sendable, CaseIterable {
    case sms, call, whatsapp, sna, email

    var channel: Channel {
        switch self {
        case .sms: .sms
        case .call: .voice
        case .whatsapp: .whatsapp
        case .sna: .silentAuth
        case .email: .email
        }
    }

    init(_ channel: Channel) {
        switch channel {
        case .sms: self = .sms
        case .voice: self = .call
        case .whatsapp: self = .whatsapp
        case .silentAuth: self = .sna
        case .email: self = .email
        }
    }
}
