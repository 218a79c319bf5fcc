import TacitCore
import TacitHTTP

/// The server's routes, each registered with its security declared: every `add` takes a
/// `RouteSecurity`, so no route can be added that the gate doesn't know how to guard.
/// The gate runs around each route from its declaration, and around the router's own
/// answer to a request no route takes. Answers that reach a handler are counted by
/// route pattern and status for `/metrics`.
public struct RouteTable: Sendable {
    private var routes = Router()
    let metrics: Metrics
    let gate: SecurityGate
    /// Every route added, in order, with what secures it.
    private(set) var declarations: [RouteDeclaration] = []

    init(metrics: Metrics, gate: SecurityGate) {
        self.metrics = metrics
        self.gate = gate
    }

    /// The router to serve.
    var router: Router {
        var router = routes
        let gate = self.gate
        let declared = Dictionary(grouping: declarations, by: \.pattern).mapValues { $0.map(\.security) }
        router.unrouted = { request, patterns, answer in
            await gate.unrouted(request, declared: patterns.flatMap { declared[$0] ?? [] }, answer: answer)
        }
        return router
    }

    public mutating func add(_ method: String, _ pattern: String, _ security: RouteSecurity,
                             _ handler: @escaping HTTPHandler) {
        let counted = counting(method, pattern, handler)
        mount(method, pattern, security, guards: []) { await counted($0) }
    }

    /// Adds a handler that answers by throwing (see `answer`).
    public mutating func add(_ method: String, _ pattern: String, _ security: RouteSecurity,
                      throwing handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        add(method, pattern, security) { request in await Self.answer { try await handler(request) } }
    }

    /// Adds the start route: `read` parses the body once, the start guard judges that
    /// value, and `handler` gets the same value.
    public mutating func add(_ method: String, _ pattern: String, _ security: RouteSecurity,
                      reading read: @escaping @Sendable (HTTPRequest) -> StartSubmission,
                      starting handler:
                          @escaping @Sendable (HTTPRequest, StartSubmission) async throws -> HTTPResponse) {
        let gate = self.gate, metrics = self.metrics
        mount(method, pattern, security, guards: [.start]) { request in
            let submission = read(request)
            let response = try await gate.start(request, submission) {
                await Self.answer { try await handler(request, submission) }
            }
            metrics.request(route: pattern, method: method, status: response.status)
            return response
        }
    }

    /// Adds a code-check route: the failed-check guard admits the check, then acts on the
    /// `CheckResult` the handler reports beside its response. `locate` names the
    /// verification checked: the path's `:id`, unless the route names it otherwise; the
    /// handler gets what it named, so a route that had to look it up doesn't again.
    public mutating func add(_ method: String, _ pattern: String, _ security: RouteSecurity,
                      locating locate:
                          @escaping @Sendable (HTTPRequest) async throws -> String? = { $0.pathParameters["id"] },
                      checking handler:
                          @escaping @Sendable (HTTPRequest, _ located: String?) async throws -> CheckAnswer) {
        let gate = self.gate, metrics = self.metrics
        mount(method, pattern, security, guards: [.failedChecks]) { request in
            let located = try await locate(request)
            return try await gate.check(request, id: located) {
                var result: CheckResult?
                let response = await Self.answer {
                    let answer = try await handler(request, located)
                    result = answer.result
                    return answer.response
                }
                metrics.request(route: pattern, method: method, status: response.status)
                return CheckAnswer(response: response, result: result)
            }
        }
    }

    private mutating func mount(_ method: String, _ pattern: String, _ security: RouteSecurity,
                                guards: [RouteDeclaration.Guard],
                                _ route: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        declarations.append(RouteDeclaration(method: method, pattern: pattern, security: security, guards: guards))
        let gate = self.gate
        routes.add(method, pattern) { request in await gate.admit(request, security) { try await route(request) } }
    }

    private func counting(_ method: String, _ pattern: String, _ handler: @escaping HTTPHandler) -> HTTPHandler {
        let metrics = self.metrics
        return { request in
            let response = await handler(request)
            metrics.request(route: pattern, method: method, status: response.status)
            return response
        }
    }

    /// A thrown `APIProblem` becomes its problem+json response; anything else is the
    /// server's fault, a 503 without internals, never a crash.
    private static func answer(_ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do { return try await body() }
        catch let problem as APIProblem { return problem.response }
        catch { return APIProblem.unavailable.response }
    }
}
