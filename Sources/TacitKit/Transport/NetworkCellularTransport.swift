#if canImport(Network)
import Foundation
import Network

/// A `CellularTransport` over Apple's Network framework that only uses the
/// cellular interface (`requiredInterfaceType = .cellular`), even when Wi-Fi is up.
///
/// `http://` and `https://` (the Network framework's TLS, against the system's trust; an
/// extra CA is not supported here, unlike `SocketCellularTransport`): the raw HTTP/1.1
/// exchange is written by hand so redirects are never followed for us.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public struct NetworkCellularTransport: CellularTransport {
    private let monitor: CellularPathMonitor

    public init() { monitor = CellularPathMonitor() }

    /// Whether the system currently reports a usable cellular path.
    public var isAvailable: Bool { monitor.isSatisfied }

    public func send(_ request: CellularRequest) async throws -> CellularResponse {
        let target = try HTTPTarget(request.url)
        guard let port = NWEndpoint.Port(rawValue: UInt16(target.port)) else {
            throw CellularTransportError(.unsupportedURL, "invalid port")
        }
        let connection = NWConnection(host: NWEndpoint.Host(target.host), port: port,
                                      using: Self.parameters(for: target))
        let exchange = NetworkExchange(connection: connection, request: target.requestBytes(request),
                                       isHead: request.method == "HEAD")
        return try await withTaskCancellationHandler {
            try await exchange.run(timeout: request.timeout)
        } onCancel: {
            connection.cancel()
        }
    }
}

/// Keeps an `NWPathMonitor` for the cellular interface running.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
final class CellularPathMonitor: @unchecked Sendable {
    // Safe to share: `satisfied` is only touched under `lock`; NWPathMonitor is thread-safe.
    private let monitor = NWPathMonitor(requiredInterfaceType: .cellular)
    private let lock = NSLock()
    private var satisfied = true

    init() {
        monitor.pathUpdateHandler = { [weak self] path in
            guard let self else { return }
            self.lock.withLock { self.satisfied = path.status == .satisfied }
        }
        monitor.start(queue: DispatchQueue(label: "tacit.cellular-path"))
    }

    deinit { monitor.cancel() }

    var isSatisfied: Bool { lock.withLock { satisfied } }
}

/// One request/response over an `NWConnection`.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
struct NetworkExchange: Sendable {
    let connection: NWConnection
    let request: [UInt8]
    let isHead: Bool

    func run(timeout: Duration) async throws -> CellularResponse {
        let queue = DispatchQueue(label: "tacit.cellular-exchange")
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        queue.asyncAfter(deadline: .now() + seconds) { [connection] in connection.cancel() }
        defer { connection.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            connection.stateUpdateHandler = { [connection, request] state in
                switch state {
                case .ready:
                    connection.send(content: Data(request), completion: .contentProcessed { _ in })
                    receive(HTTPResponseParser(isHeadRequest: isHead), continuation)
                case .failed(let error), .waiting(let error):
                    continuation.resume(throwing: NetworkCellularTransport.failure(error))
                    connection.stateUpdateHandler = nil
                case .cancelled:
                    continuation.resume(throwing: CellularTransportError(Task.isCancelled ? .cancelled : .timeout,
                                                                         "connection ended"))
                    connection.stateUpdateHandler = nil
                default: break
                }
            }
            connection.start(queue: queue)
        }
    }

    private func receive(_ parser: HTTPResponseParser,
                         _ continuation: CheckedContinuation<CellularResponse, any Error>) {
        connection.receive(minimumIncompleteLength: 1, maximumLength: 64 * 1024) { data, _, isComplete, error in
            var parser = parser
            do {
                if let data, let response = try parser.feed(data) {
                    connection.stateUpdateHandler = nil
                    return continuation.resume(returning: response)
                }
                if isComplete || error != nil {
                    connection.stateUpdateHandler = nil
                    return continuation.resume(returning: try parser.finish())
                }
                receive(parser, continuation)
            } catch {
                connection.stateUpdateHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
#endif
