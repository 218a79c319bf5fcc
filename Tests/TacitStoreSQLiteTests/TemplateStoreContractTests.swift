import Foundation
import Testing
import TacitStore

/// The templates half of the store contract (docs/locales.md#templates): one template per
/// application, channel and locale, replaced in place, listed and deleted per application
/// only; the SMS autofill settings kept with the application's others.
@Suite("Store contract: message templates")
struct TemplateStoreContractTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func template(_ application: String, _ channel: String, _ locale: String, _ body: String,
                         subject: String? = nil) -> MessageTemplate {
        MessageTemplate(applicationId: application, channel: channel, locale: locale, body: body, subject: subject,
                        updatedAt: now)
    }

    @Test("set, replace, list and delete per application; another application's stay untouched",
          arguments: StoreContractTests.Kind.allCases)
    func perApplication(kind: StoreContractTests.Kind) async throws {
        let (made, _) = try await StoreContractTests.make(kind)
        let store = try #require(made as? any VerificationStore & ApplicationStore & TemplateStore)
        for id in ["app_a", "app_b"] {
            try await store.insertApplication(Application(id: id, name: id, createdAt: Self.now), credentials: [])
        }
        #expect(try await store.setTemplate(Self.template("app_a", "sms", "de", "A1 {{code}}")))
        #expect(try await store.setTemplate(Self.template("app_a", "sms", "de", "A2 {{code}}")))
        #expect(try await store.setTemplate(Self.template("app_a", "email", "de", "E {{code}}", subject: "S")))
        #expect(try await store.setTemplate(Self.template("app_b", "sms", "de", "B {{code}}")))
        #expect(try await !store.setTemplate(Self.template("app_none", "sms", "de", "{{code}}")))
        let mine = try await store.templates(application: "app_a")
        #expect(mine.map { "\($0.channel)/\($0.locale)=\($0.body)" } == ["email/de=E {{code}}", "sms/de=A2 {{code}}"])
        #expect(mine.first?.subject == "S" && mine.first?.updatedAt == Self.now)
        #expect(try await store.deleteTemplate(application: "app_a", channel: "sms", locale: "de"))
        #expect(try await !store.deleteTemplate(application: "app_a", channel: "sms", locale: "de"))
        #expect(try await store.templates(application: "app_a").map(\.channel) == ["email"])
        #expect(try await store.templates(application: "app_b").map(\.body) == ["B {{code}}"])
    }

    @Test("the SMS app hash and origin are kept and changed with the application's settings",
          arguments: StoreContractTests.Kind.allCases)
    func autofillSettings(kind: StoreContractTests.Kind) async throws {
        let (made, _) = try await StoreContractTests.make(kind)
        let store = try #require(made as? any VerificationStore & ApplicationStore)
        let settings = ApplicationSettings(brand: "Shop", smsAppHash: "FA+9qCX9VSu", smsOrigin: "example.com")
        try await store.insertApplication(Application(id: "app_a", name: "A", createdAt: Self.now, settings: settings),
                                          credentials: [])
        #expect(try await store.application(id: "app_a")?.settings == settings)
        var changed = settings
        changed.smsAppHash = nil
        changed.smsOrigin = "shop.example"
        #expect(try await store.updateApplication(id: "app_a", settings: changed))
        #expect(try await store.application(id: "app_a")?.settings == changed)
    }
}
