import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// The `/v1/templates` routes (docs/api.md#templates): an application reads its message
/// templates with any key that reads, and changes them with a key holding `templates:write`.
/// In `--dev` a keyless loopback call acts for the `dev` application, as on every `/v1` route.
struct TemplateRoutes: Sendable {
    let manager: TemplateManager?
    let clock: any TacitClock

    func register(_ router: inout RouteTable) {
        router.add("GET", "/v1/templates", .read, throwing: list)
        router.add("GET", "/v1/templates/:channel/:locale", .read, throwing: fetch)
        router.add("PUT", "/v1/templates/:channel/:locale", .templatesWrite, throwing: put)
        router.add("DELETE", "/v1/templates/:channel/:locale", .templatesWrite, throwing: delete)
    }

    static let noTemplate = APIProblem(status: 404, type: "not-found", title: "Not found",
                                       detail: "The application has no template for this channel and locale.")

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let listings = try await ready().list(application: application)
        return Self.json(.object(["templates": .array(listings.map(\.json))]))
    }

    private func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (channel, locale) = path(request)
        guard let listing = try await ready().template(application: application, channel: channel, locale: locale)
        else { throw Self.noTemplate }
        return Self.json(listing.json)
    }

    private func put(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.requireJSON()
        let (channel, locale) = path(request)
        var fields = try JSONRequest(body: request.body)
        let body = fields.string("body", required: true)
        let subject = fields.string("subject")
        try fields.finish()
        do {
            guard let listing = try await ready().set(application: application, channel: channel, locale: locale,
                                                      body: body ?? "", subject: subject, at: clock.now()) else {
                throw APIProblem.unavailable
            }
            return Self.json(listing.json)
        } catch let refusal as TemplateManager.Refusal {
            throw APIProblem.invalid(refusal.problems)
        }
    }

    private func delete(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (channel, locale) = path(request)
        guard try await ready().delete(application: application, channel: channel, locale: locale) else {
            throw Self.noTemplate
        }
        return .empty()
    }

    private var application: String { ActingApplication.id ?? Application.defaultID }

    private func path(_ request: HTTPRequest) -> (channel: String, locale: String) {
        (request.pathParameters["channel"] ?? "", (request.pathParameters["locale"] ?? "").lowercased())
    }

    private func ready() throws -> TemplateManager {
        guard let manager else { throw APIProblem.unavailable }
        return manager
    }

    private static func json(_ value: JSONValue) -> HTTPResponse {
        var writer = JSONWriter()
        writer.value(value)
        return .json(bytes: writer.bytes)
    }
}
