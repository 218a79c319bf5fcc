import Foundation

/// A message that carries a one-time code to a phone.
public struct OutboundMessage: Sendable, Equatable {
    public var channel: Channel
    /// E.164; for an email, the address.
    public var to: String
    /// The text shown (SMS, WhatsApp) or spoken (voice), already in the message's language.
    public var body: String
    public var verificationId: String
    /// The workflow step whose code this is: with the id, what a provider's receipt refers to.
    public var step: Int
    /// The language `body` is written in (`en`, `ja`, `zh`), for a voice to speak it.
    public var language: String
    /// The verification's locale as asked for (`en-us`), for a regional voice.
    public var locale: String
    /// The text-to-speech voice for a call (`de-DE`), chosen from the locale's voices;
    /// empty when the sender left it to the provider to choose from `language` and `locale`.
    public var voice: String
    /// The code alone, for providers whose template takes it as a parameter (WhatsApp
    /// authentication templates); `body` already holds it for everyone else.
    public var code: String
    /// The brand the texts name.
    public var brand: String
    /// Stable for this verification's step however often the send is tried (after a crash,
    /// or by another instance), for providers that deduplicate by a key; never the code.
    public var idempotencyKey: String?
    /// The application that owns the verification, whose per-number send limit the message spends.
    public var applicationId: String?
    /// An email's subject line, in the message's language; empty for every other channel.
    public var subject: String = ""
    /// An email's HTML part: `body` escaped and in paragraphs; empty for every other channel.
    public var html: String = ""

    public init(channel: Channel, to: String, body: String, verificationId: String,
                step: Int = 0, language: String = "en", locale: String = "en", voice: String = "",
                code: String = "", brand: String = "", idempotencyKey: String? = nil, applicationId: String? = nil) {
        self.channel = channel
        self.to = to
        self.body = body
        self.verificationId = verificationId
        self.step = step
        self.language = language
        self.locale = locale
        self.voice = voice
        self.code = code
        self.brand = brand
        self.idempotencyKey = idempotencyKey
        self.applicationId = applicationId
    }

    /// What a provider is handed to name this message in its receipts: `<request_id>:<step>`.
    public var callbackReference: String { "\(verificationId):\(step)" }
}

/// The port every messaging provider implements: delivers codes by SMS, voice,
/// WhatsApp or email. In `--dev` the virtual handset inbox is one more implementation.
public protocol MessageSender: Sendable {
    func send(_ message: OutboundMessage) async -> DeliveryResult
}
