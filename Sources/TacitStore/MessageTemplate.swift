import Foundation

/// An application's own wording of one channel's code message in one locale
/// (docs/locales.md#templates), in place of the built-in text: `{{code}}`, `{{brand}}`,
/// `{{minutes}}` and, for SMS, `{{app_hash}}` and `{{origin}}` are filled when a message is written.
public struct MessageTemplate: Sendable, Equatable {
    public var applicationId: String
    /// `sms`, `whatsapp`, `voice` or `email`.
    public var channel: String
    /// The BCP 47 tag it is for, lowercased (`de`, `es-ar`).
    public var locale: String
    public var body: String
    /// An email's subject; nil for the other channels.
    public var subject: String?
    public var updatedAt: Date

    public init(applicationId: String, channel: String, locale: String, body: String, subject: String? = nil,
                updatedAt: Date) {
        self.applicationId = applicationId
        self.channel = channel
        self.locale = locale
        self.body = body
        self.subject = subject
        self.updatedAt = updatedAt
    }
}
