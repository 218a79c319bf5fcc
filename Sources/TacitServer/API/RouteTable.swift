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
}
