import Foundation
import TacitCore
import TacitHTTP
import TacitPhone
import TacitStore

/// `GET /v1/verifications` and `GET /v1/insights/summary` (docs/api.md#insights): the
/// acting application's verifications a page at a time, and its summary from rollups.
struct InsightRoutes: Sendable {
    let store: any VerificationStore
    let cursors: ListCursor
    /// The widest summary range: hourly rows for longer would no longer answer in time.
    static let widestRange: TimeInterval = 93 * 86400
    static let defaultLimit = 50
    static let limits = 1...200

    func register(_ router: inout RouteTable) {
        router.add("GET", "/v1/verifications", .read, throwing: list)
        router.add("GET", "/v1/insights/summary", .read, throwing: summary)
    }

    func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let application = ActingApplication.id ?? Application.defaultID
        var input = QueryInput(request.query)
        var query = VerificationListQuery(application: application)
        query.status = input.value("status", "is not a verification status") { VerificationStatus(rawValue: $0) }
        query.channel = input.value("channel", "is not a channel") { Channel(rawValue: $0) }
        query.region = input.value("country", "is not an ISO 3166 alpha-2 region") { text in
            text.count == 2 && text.allSatisfy { $0.isASCII && $0.isUppercase } ? text : nil
        }
        query.from = input.value("from", "is not an RFC 3339 time") { Timestamp.parse($0) }
        query.to = input.value("to", "is not an RFC 3339 time") { Timestamp.parse($0) }
        query.clientRef = input.value("client_ref", "is too long") { $0.count <= 256 ? $0 : nil }
        let limit = input.value("limit", "is not a number from 1 to 200") { text in
            Int(text).flatMap { Self.limits.contains($0) ? $0 : nil }
        } ?? Self.defaultLimit
        let scope = Self.scope(of: query)
        query.after = input.value("cursor", "is not a cursor of this list") { cursors.read($0, scope: scope) }
        try input.finish()
        let (page, next) = try await store.listVerifications(query, limit: limit)
        let cursor = try next.map { try cursors.write($0, scope: scope) }
        return .json(bytes: JSONText.object([
            "verifications": .array(page.map(Self.item)),
            "next_cursor": cursor.map { .string($0) } ?? .null,
        ]))
    }

    /// What a cursor is bound to: the application and every filter, so it can't be replayed on another list.
    static func scope(of query: VerificationListQuery) -> String {
        [query.application, query.status?.rawValue ?? "", query.channel?.rawValue ?? "", query.region ?? "",
         query.from.map { String($0.timeIntervalSince1970) } ?? "",
         query.to.map { String($0.timeIntervalSince1970) } ?? "", query.clientRef ?? ""].joined(separator: "\n")
    }

    /// One list item: no code, hash, token, check URL, full number or full address. A
    /// verification of an address alone has no number: its `phone_number` is null.
    static func item(_ v: Verification) -> JSONValue {
        let channel = v.activeChannel ?? v.workflow.last { $0.status != .unused }?.channel
        return .object([
            "request_id": .string(v.id),
            "status": .string(v.status.rawValue),
            "face": .string(v.face),
            "phone_number": v.phoneNumber.isEmpty ? .null : .string(PhoneNumber.redact(v.phoneNumber)),
            "email_address": v.emailAddress.map { .string(EmailAddress.redacted($0)) } ?? .null,
            "country": v.region.map { .string($0) } ?? .null,
            "client_ref": v.clientRef.map { .string($0) } ?? .null,
            "channel": channel.map { .string($0.rawValue) } ?? .null,
            "workflow": VerificationBody.workflow(v),
            "created_at": .string(Timestamp.format(v.createdAt)),
            "finished_at": v.endedAt.map { .string(Timestamp.format($0)) } ?? .null,
            "sends": .array(v.acceptedSends.map { send in
                .object(["step": .number(Double(send.step)), "channel": .string(send.channel.rawValue),
                         "provider": .string(send.provider),
                         "price": send.price.map { .string($0) } ?? .null,
                         "currency": send.currency.map { .string($0) } ?? .null,
                         "price_source": send.priceSource.map { .string($0.rawValue) } ?? .null])
            }),
        ])
    }

    func summary(_ request: HTTPRequest) async throws -> HTTPResponse {
        let application = ActingApplication.id ?? Application.defaultID
        var input = QueryInput(request.query)
        let from = input.required("from", "is not an RFC 3339 time") { Timestamp.parse($0) }
        let to = input.required("to", "is not an RFC 3339 time") { Timestamp.parse($0) }
        let grouping = input.required("group_by", "is not one of channel, country, provider, prefix, day") {
            InsightSummary.grouping(named: $0)
        }
        try input.finish()
        guard let from, let to, let grouping else { throw APIProblem.notFound }
        guard to > from else { throw QueryInput.problem([InvalidParameter(name: "to", reason: "is not after from")]) }
        guard to.timeIntervalSince(from) <= Self.widestRange else {
            throw QueryInput.problem([InvalidParameter(name: "to", reason: "is more than 93 days after from")])
        }
        let fromHour = RollupDelta.hour(of: from), toHour = RollupDelta.hour(of: to)
        let sums = try await store.rollupSums(application: application, fromHour: fromHour, toHour: toHour,
                                              grouping: grouping)
        // Only by provider do the groups leave counts out (starts): otherwise they sum to the totals,
        // as the channel rows always do.
        let totals = grouping == .dimension(.provider)
            ? try await store.rollupSums(application: application, fromHour: fromHour, toHour: toHour,
                                         grouping: .dimension(.channel))
            : sums
        let summary = InsightSummary(from: Date(timeIntervalSince1970: Double(fromHour)),
                                     to: Date(timeIntervalSince1970: Double(toHour)), grouping: grouping,
                                     sums: sums, totals: totals)
        return .json(bytes: summary.bytes)
    }
}
