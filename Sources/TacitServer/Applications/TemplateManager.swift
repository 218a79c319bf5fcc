import Foundation
import TacitCore
import TacitStore

/// Sets, lists and deletes an application's message templates by `TemplateRules`, for the
/// `/v1/templates` routes and `tacit apps templates` alike (docs/locales.md#templates).
public struct TemplateManager: Sendable {
    /// A template the rules refuse, with every reason by field.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var problems: [InvalidParameter]
        public var description: String {
            problems.map { "\($0.name) \($0.reason)" }.joined(separator: "; ")
        }
    }

    /// One stored template and, for SMS, how it travels for a typical start of its application.
    public struct Listing: Sendable, Equatable {
        public var template: MessageTemplate
        public var encoding: SMSEncoding?

        /// As the routes answer it (docs/api.md#templates).
        var json: JSONValue {
            var members: [String: JSONValue] = [
                "channel": .string(template.channel), "locale": .string(template.locale),
                "body": .string(template.body), "updated_at": .string(Timestamp.format(template.updatedAt)),
            ]
            if let subject = template.subject { members["subject"] = .string(subject) }
            if let encoding {
                members["encoding"] = .string(encoding.alphabet.rawValue)
                members["segments"] = .number(Double(encoding.segments))
            }
            return .object(members)
        }
    }

    let templates: any TemplateStore
    let applications: any ApplicationStore

    public init(templates: any TemplateStore, applications: any ApplicationStore) {
        self.templates = templates
        self.applications = applications
    }

    /// The manager over `store`, nil when it keeps no templates.
    public init?(store: any VerificationStore) {
        guard let templates = store as? any TemplateStore, let applications = store as? any ApplicationStore else {
            return nil
        }
        self.init(templates: templates, applications: applications)
    }

    /// The application's templates, each SMS measured with its settings.
    public func list(application: String) async throws -> [Listing] {
        let settings = try await applications.applicationSettings(id: application)
        return try await templates.templates(application: application).map { listing($0, settings: settings) }
    }

    /// The application's template for `channel` and `locale` as given (lowercased), nil when none.
    public func template(application: String, channel: String, locale: String) async throws -> Listing? {
        try await list(application: application).first {
            $0.template.channel == channel && $0.template.locale == locale.lowercased()
        }
    }

    /// Stores the template after the rules' checks; throws `Refusal`. nil when no
    /// application has this id.
    public func set(application: String, channel: String, locale: String, body: String, subject: String? = nil,
                    at now: Date = Date()) async throws -> Listing? {
        let settings = try await applications.applicationSettings(id: application)
        let tag = locale.lowercased().replacingOccurrences(of: "_", with: "-")
        let problems = TemplateRules.problems(channel: channel, locale: tag, body: body, subject: subject,
                                              settings: settings)
        guard problems.isEmpty else { throw Refusal(problems: problems) }
        let template = MessageTemplate(applicationId: application, channel: channel, locale: tag, body: body,
                                       subject: subject, updatedAt: now)
        guard try await templates.setTemplate(template) else { return nil }
        return listing(template, settings: settings)
    }

    /// Removes the template; false when the application had none for `channel` and `locale`.
    public func delete(application: String, channel: String, locale: String) async throws -> Bool {
        try await templates.deleteTemplate(application: application, channel: channel,
                                           locale: locale.lowercased().replacingOccurrences(of: "_", with: "-"))
    }

    private func listing(_ template: MessageTemplate, settings: ApplicationSettings?) -> Listing {
        Listing(template: template,
                encoding: template.channel == "sms" ? TemplateRules.typical(template.body, settings: settings) : nil)
    }
}
