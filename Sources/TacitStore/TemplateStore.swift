import Foundation

/// Where applications' message templates live, one per (application, channel, locale).
/// Every call names its application: one application never reads or changes another's.
public protocol TemplateStore: Sendable {
    /// The application's templates, by channel then locale.
    func templates(application: String) async throws -> [MessageTemplate]
    /// Adds the template or replaces the one for its channel and locale; false when no
    /// application has its id.
    func setTemplate(_ template: MessageTemplate) async throws -> Bool
    /// Removes the application's template for `channel` and `locale`; false when it had none.
    func deleteTemplate(application: String, channel: String, locale: String) async throws -> Bool
}
