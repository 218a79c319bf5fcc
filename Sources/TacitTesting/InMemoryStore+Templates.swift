import Foundation
import TacitStore

/// Applications' message templates in memory, one per channel and locale.
extension InMemoryStore: TemplateStore {
    public func templates(application: String) async throws -> [MessageTemplate] {
        messageTemplates.withLock { held in
            held.filter { $0.applicationId == application }.sorted { ($0.channel, $0.locale) < ($1.channel, $1.locale) }
        }
    }

    public func setTemplate(_ template: MessageTemplate) async throws -> Bool {
        guard try await application(id: template.applicationId) != nil else { return false }
        messageTemplates.withLock { held in
            held.removeAll { Self.same($0, template.applicationId, template.channel, template.locale) }
            held.append(template)
        }
        return true
    }

    public func deleteTemplate(application: String, channel: String, locale: String) async throws -> Bool {
        messageTemplates.withLock { held in
            let before = held.count
            held.removeAll { Self.same($0, application, channel, locale) }
            return held.count < before
        }
    }

    private static func same(_ template: MessageTemplate, _ application: String, _ channel: String,
                             _ locale: String) -> Bool {
        template.applicationId == application && template.channel == channel && template.locale == locale
    }
}
