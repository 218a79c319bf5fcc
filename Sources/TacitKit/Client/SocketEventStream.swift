#if os(Linux)
import Foundation
import FoundationNetworking
import Synchronization

/// One streaming `http://` GET over a plain socket, for SSE on Linux.
///
/// FoundationNetworking's URLSession keeps a CPU core busy for as long as a
/// streaming response sits idle (measured at 50-85% of a core while an SSE stream
/// waits), which an app holding a stream for minutes can't afford. The socket
/// waits in `poll` instead. `https://` still goes through URLSession.
enum SocketEventStream {
    /// Starts the request, or returns nil for a URL it can't serve (https).
    static func open(_ request: URLRequest,
                     idleTimeout: TimeInterval) -> AsyncThrowingStream<SSEConnection.Chunk, any Error>? {
        guard let url = request.url, let target = try? HTTPTarget(url), !target.isSecure else { return nil }
        let head = target.requestBytes(CellularRequest(method: request.httpMethod ?? "GET", url: url,
                                                       headers: request.allHTTPHeaderFields ?? [:]))
        let idle = Duration.milliseconds(Int64(idleTimeout * 1000))
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SSEConnection.Chunk.self)
        let holder = SocketHolder()
        continuation.onTermination = { _ in holder.cancel() }
        // Blocking waits get a queue of their own, off Swift's cooperative pool.
        DispatchQueue(label: "tacit.event-stream").async {
            do {
                let status = try pump(target, head: head, idle: idle, holder: holder) { continuation.yield($0) }
                continuation.yield(.response(status: status))
                continuation.finish()
            } catch {
                continuation.finish(throwing: TacitError.network("the event stream was interrupted"))
            }
        }
        return stream
    }

    /// Connects, sends, and hands on body bytes as they come; returns the status.
    private static func pump(
        _ target: HTTPTarget, head: [UInt8], idle: Duration, holder: SocketHolder, yield: (SSEConnection.Chunk) -> Void
    ) throws -> Int {
        guard let address = try SocketAddress.resolve(host: target.host, port: target.port).first else {
            throw CellularTransportError(.connectionFailed, "no address")
        }
        let socket = try SocketHandle(family: address.family)
        guard holder.attach(socket) else { throw CellularTransportError(.cancelled, "cancelled") }
        try socket.connect(to: address, deadline: .now.advanced(by: idle))
        try socket.write(head, deadline: .now.advanced(by: idle))
        var body = StreamingBody()
        while !body.isComplete {
            let bytes = try socket.read(deadline: .now.advanced(by: idle))
            if bytes.isEmpty { break }
            let payload = try body.feed(bytes)
            if !payload.isEmpty { yield(.data(Data(payload), status: body.status)) }
        }
        guard body.status != 0 else { throw CellularTransportError(.invalidResponse, "no response head") }
        return body.status
    }
}

/// The socket of a stream, so the consumer going away can shut it from another thread.
final class SocketHolder: Sendable {
    private let state = Mutex<(socket: SocketHandle?, cancelled: Bool)>((nil, false))

    /// Keeps the socket; false when the stream was already cancelled.
    func attach(_ socket: SocketHandle) -> Bool {
        state.withLock { state in
            state.socket = socket
            return !state.cancelled
        }
    }

    func cancel() {
        let socket = state.withLock { state in
            state.cancelled = true
            return state.socket
        }
        socket?.cancel()
    }
}
#endif
