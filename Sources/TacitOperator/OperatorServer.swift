import TacitCore
import TacitHTTP

/// The virtual operator on its own port: a separate "network" that tests (and a
/// Tacit server configured with the shared secret) reach over loopback.
public final class OperatorServer: Sendable {
    public let network: VirtualOperator
    private let server: HTTPServer

    /// `host` and `port` as for any HTTP server; port 0 picks a free one.
    public init(network: VirtualOperator, host: String = "127.0.0.1", port: Int = 0) {
        self.network = network
        var router = Router()
        OperatorRoutes(network: network).register { router.add($0, $1, $2) }
        let routes = router
        server = HTTPServer(configuration: HTTPServer.Configuration(host: host, port: port)) { await routes.handle($0) }
    }

    /// Starts listening and tells the operator the URL its gateway is reached at.
    public func start() throws {
        try server.start()
        let host = server.configuration.host
        network.baseURL = "http://\(host.contains(":") ? "[\(host)]" : host):\(server.port)"
    }

    public var port: Int { server.port }
    public var baseURL: String { network.baseURL }

    public func shutdown() async {
        await server.shutdown()
    }
}
