import Foundation
import TacitCrypto

/// Secrets for verifying provider callbacks. A provider's route answers 404 until its
/// secret is set, so nothing unsigned is ever accepted.
public struct CallbackSettings: Sendable, Equatable {
    /// Vonage's signature secret: Messages API callbacks carry `Authorization: Bearer <JWT HS256>`,
    /// SMS API delivery receipts a `sig` parameter.
    public var vonageSignatureSecret: String?
    /// The account's signature method for SMS API receipts (the dashboard's default is `md5hash`).
    public var vonageSignatureMethod: VonageSignature.Method = .md5hash
    /// Twilio's auth token: callbacks carry `X-Twilio-Signature`.
    public var twilioAuthToken: String?
    /// How old a signed callback (`iat`) may be.
    public var maxAge: TimeInterval = 300
    /// How long a Twilio signature is remembered against replays (Twilio signs no time).
    public var twilioReplayWindow: TimeInterval = 24 * 3600

    public init() {}
}

/// Where a provider callback points: the verification and the step whose message it reports.
/// Tacit hands it to providers as `client_ref` (Vonage) or the `ref` query parameter of the
/// status callback URL (Twilio), written `<request_id>:<step>`.
struct CallbackReference: Equatable, Sendable {
    var verificationId: String
    var step: Int

    init(verificationId: String, step: Int) {
        self.verificationId = verificationId
        self.step = step
    }

    init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let step = Int(parts[1]), (0..<10).contains(step), (1...64).contains(parts[0].utf8.count),
              parts[0].isTokenText else { return nil }
        verificationId = String(parts[0])
        self.step = step
    }

    var text: String { "\(verificationId):\(step)" }
}

/// A verified provider report about one message: what the provider said, normalised.
struct ProviderReport: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case delivered
        case failed
        /// Progress that changes nothing (queued, sent, ringing…).
        case progress
    }
    var provider: String
    var reference: CallbackReference?
    /// The provider's own status word (letters, `-` and `_` only, at most 32 characters).
    var status: String
    var kind: Kind
    /// The provider's id for the message or call (letters, digits, `-` and `_`, at most 64).
    var messageId: String?
    /// The provider's error code for a failure (digits only).
    var errorCode: String?

    init(provider: String, reference: CallbackReference?, status: String, failures: Set<String>, deliveries: Set<String>,
         messageId: String? = nil, errorCode: String? = nil) {
        self.provider = provider
        self.reference = reference
        self.messageId = messageId.flatMap { id in
            id.count <= 64 && id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) ? id : nil
        }
        self.errorCode = errorCode.flatMap { code in (1...8).contains(code.count) && code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber) ? code : nil }
        let word = status.lowercased()
        self.status = word.count <= 32 && word.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) ? word : "unknown"
        kind = failures.contains(self.status) ? .failed : deliveries.contains(self.status) ? .delivered : .progress
    }
}
