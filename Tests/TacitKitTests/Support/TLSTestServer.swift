import Foundation
import Synchronization
import TacitHTTP
import TacitTesting

/// An HTTPS server on an ephemeral loopback port, TacitHTTP over TLS with one of the
/// test certificates: a carrier hop served as real ones are. Records each request's
/// path and peer address.
final class TLSTestServer: Sendable {
    struct Seen: Sendable, Equatable {
        let path: String
        let peer: String
    }

    /// The requests seen, shared with the handler.
    final class Log: Sendable {
        let entries = Mutex<[Seen]>([])
    }

    private let server: HTTPServer
    private let log = Log()

    init(_ identity: TestCertificates.Identity = TestCertificates.shared.loopback,
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.tls = identity.credentials
        let log = self.log
        server = HTTPServer(configuration: configuration) { request in
            log.entries.withLock { $0.append(Seen(path: request.path, peer: request.remoteAddress)) }
            return handler(request)
        }
        try server.start()
    }

    /// `https://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(server.port)\(path)")! }

    var requests: [Seen] { log.entries.withLock { $0 } }

    func stop() async { await server.shutdown() }
}
