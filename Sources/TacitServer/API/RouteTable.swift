import TacitHTTP

/// A router that counts every answer by route pattern and status for `/metrics`.
struct RouteTable: Sendable {
    private(set) var router = Router()
    let metrics: Metrics

    init(metrics: Metrics) {
        self.metrics = metrics
    }

    mutating func add(_ method: String, _ pattern: String, _ handler: @escaping HTTPHandler) {
        let metrics = self.metrics
        router.add(method, pattern) { request in
            let response = await handler(request)
            metrics.request(route: pattern, method: method, status: response.status)
            return response
        }
    }

    /// Adds a handler that answers by throwing: an `APIProblem` becomes its problem+json
    /// response; anything else is the server's fault, a 503 without internals, never a crash.
    mutating func add(_ method: String, _ pattern: String,
                      throwing handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        add(method, pattern) { request in
            do { return try await handler(request) }
            catch let problem as APIProblem { return problem.response }
            catch { return APIProblem.unavailable.response }
        }
    }
}
