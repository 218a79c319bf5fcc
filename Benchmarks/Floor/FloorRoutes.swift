import Foundation
import TacitCore
import TacitHTTP

/// The routes the benchmarks' clients call, each doing the writes Tacit's does and no more.
struct FloorRoutes: Sendable {
    let store: FloorStore

    var router: Router {
        var router = Router()
        router.add("GET", "/healthz") { _ in .json(bytes: Array(#"{"status":"ok"}"#.utf8)) }
        router.add("GET", "/readyz") { _ in .json(bytes: Array(#"{"status":"ready"}"#.utf8)) }
        router.add("GET", "/metrics") { [store] _ in
            .text("tacit_http_requests_total{method=\"POST\",route=\"/v1/verifications/:id/check\",status=\"200\"} \(store.checks.load(ordering: .relaxed))\n")
        }
        router.add("GET", "/v1/dev/handsets/:number/inbox") { _ in
            .json(bytes: Array(#"{"messages":[{"channel":"sms","body":"Your Tacit code is 123456"}]}"#.utf8))
        }
        router.add("POST", "/v1/verifications", create)
        router.add("POST", "/v1/verifications/:id/check", check)
        router.add("GET", "/v1/silent/checks/:id", open)
        router.add("GET", "/floor/gateway/:id") { request in
            .redirect(location: "/v1/silent/callback?state=" + (request.pathParameters["id"] ?? ""))
        }
        router.add("GET", "/v1/silent/callback", answer)
        return router
    }

    /// An sms workflow writes the verification, then its code's delivery; a silent one
    /// (no `workflow` given, as in the silent benchmark) writes once and gets a check URL.
    func create(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = try? JSONParser.parse(request.body).objectValue, let number = body["phone_number"]?.stringValue else {
            return .problem(status: 400, type: "invalid-body", title: "Invalid body", detail: "phone_number is missing.")
        }
        let id = FloorStore.ids.make()
        let sms = body["workflow"] != nil
        do {
            let groupBytes = sms ? GroupSize.smsCreate : GroupSize.silentCreate
            guard try await store.insert(id, number: number, groupBytes: groupBytes, queuesSend: sms) else {
                return .problem(status: 409, type: "concurrent-verification", title: "Conflict", detail: "A verification is pending.")
            }
            if sms {
                try await store.change(id, finishing: false, groupBytes: GroupSize.delivery, settlesSend: true,
                                       counting: .send)
            }
        } catch {
            return .problem(status: 503, type: "unavailable", title: "Unavailable", detail: "The store failed.")
        }
        var fields: [(String, JSONValue)] = [("request_id", .string(id)), ("status", .string("pending"))]
        // Path only: the benchmark's device client joins it to the server it talks to.
        if !sms { fields.append(("check_url", .string("/v1/silent/checks/" + id))) }
        var writer = JSONWriter()
        writer.object(fields)
        return .json(status: 202, bytes: writer.bytes)
    }

    /// The sms check's group size for both workflows: a silent check writes a little more.
    func check(_ request: HTTPRequest) async -> HTTPResponse {
        guard let id = request.pathParameters["id"], (try? JSONParser.parse(request.body).objectValue?["code"]) != nil else {
            return .problem(status: 400, type: "invalid-body", title: "Invalid body", detail: "code is missing.")
        }
        return await write(id, finishing: true, groupBytes: GroupSize.check, counting: .conversion) {
            store.checks.add(1, ordering: .relaxed)
            return .json(bytes: Array(#"{"request_id":"\#(id)","status":"completed"}"#.utf8))
        }
    }

    func open(_ request: HTTPRequest) async -> HTTPResponse {
        let id = request.pathParameters["id"] ?? ""
        return await write(id, finishing: false, groupBytes: GroupSize.opened) { .redirect(location: "/floor/gateway/" + id) }
    }

    func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let id = request.query["state"] ?? ""
        return await write(id, finishing: false, groupBytes: GroupSize.answered, counting: .silentSuccess) {
            .json(bytes: Array(#"{"request_id":"\#(id)","code":"sa_floor"}"#.utf8))
        }
    }

    private func write(_ id: String, finishing: Bool, groupBytes: Int, counting counted: FloorStore.Counted? = nil,
                       then answer: () -> HTTPResponse) async -> HTTPResponse {
        do {
            try await store.change(id, finishing: finishing, groupBytes: groupBytes, counting: counted)
            return answer()
        } catch {
            return .problem(status: 503, type: "unavailable", title: "Unavailable", detail: "The store failed.")
        }
    }
}
