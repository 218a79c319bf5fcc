import Foundation
import TacitCore
import TacitHTTP
import TacitStore

/// The `/v1/fraud/blocks` routes (docs/api.md#fraud-blocks): an application reads its automatic
/// prefix blocks with any key that reads, and lifts one with a key holding `fraud:write`. In
/// `--dev` a keyless loopback call acts for the `dev` application, as on every `/v1` route.
struct FraudRoutes: Sendable {
    let blocks: PrefixBlockManager?

    func register(_ router: inout RouteTable) {
        router.add("GET", "/v1/fraud/blocks", .read, throwing: list)
        router.add("DELETE", "/v1/fraud/blocks/:prefix", .fraudWrite, throwing: unblock)
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let manager = try ready()
        let now = manager.clock.now()
        let items: [JSONValue] = try await manager.list(application: application).map { block in
            .object([
                "prefix": .string(block.shownPrefix),
                "rule": .string(block.rule),
                "blocked_at": .string(Timestamp.format(block.blockedAt)),
                "blocked_until": .string(Timestamp.format(block.blockedUntil)),
                "retry_after": .number(Double(max(1, Int(block.blockedUntil.timeIntervalSince(now).rounded(.up))))),
                "strikes": .number(Double(block.strikes)),
                "sends": .number(Double(block.sends)),
                "conversions": .number(Double(block.conversions)),
                "baseline": block.baseline.map { .number($0) } ?? .null,
            ])
        }
        var writer = JSONWriter()
        writer.value(.object(["blocks": .array(items)]))
        return .json(bytes: writer.bytes)
    }

    private func unblock(_ request: HTTPRequest) async throws -> HTTPResponse {
        let text = request.pathParameters["prefix"] ?? ""
        do {
            guard try await ready().unblock(application: application, prefix: text) else {
                throw APIProblem(status: 404, type: "not-found", title: "Not found",
                                 detail: "The application has no block in force on this prefix.")
            }
        } catch let refusal as PrefixBlockManager.Refusal {
            throw APIProblem.invalid([InvalidParameter(name: "prefix", reason: refusal.description)])
        }
        return .empty()
    }

    private var application: String { ActingApplication.id ?? Application.defaultID }

    private func ready() throws -> PrefixBlockManager {
        guard let blocks else { throw APIProblem.unavailable }
        return blocks
    }
}
