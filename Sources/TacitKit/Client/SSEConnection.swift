import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streaming HTTP GET whose body arrives chunk by chunk, as an async sequence.
///
/// URLSession's async `bytes(for:)` is missing from FoundationNetworking, so this
/// uses the delegate API, which streams on every platform.
final class SSEConnection: NSObject, URLSessionDataDelegate, Sendable {
    enum Chunk: Sendable {
        /// Sent last: the status, so answers with an empty body are seen too.
        case response(status: Int)
        /// Each chunk carries the status: the delegate keeps no state, and the
        /// response callback's signature differs between platforms.
        case data(Data, status: Int)
    }

    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation
    let chunks: AsyncThrowingStream<Chunk, any Error>

    private override init() {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: Chunk.self)
    }

    /// Starts the request; the connection ends when the returned stream is dropped.
    static func open(_ request: URLRequest, idleTimeout: TimeInterval) -> AsyncThrowingStream<Chunk, any Error> {
        #if os(Linux)
        if let stream = SocketEventStream.open(request, idleTimeout: idleTimeout) { return stream }
        #endif
        let connection = SSEConnection()
        let config = URLSessionConfiguration.default
        config.timeoutIntervalForRequest = idleTimeout
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The session retains its delegate until invalidated, which onTermination does.
        let session = URLSession(configuration: config, delegate: connection, delegateQueue: nil)
        let task = session.dataTask(with: request)
        connection.continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return connection.chunks
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data, status: Self.status(of: dataTask)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.yield(.response(status: Self.status(of: task)))
        if error != nil {
            continuation.finish(throwing: TacitError.network("the event stream was interrupted"))
        } else {
            continuation.finish()
        }
    }

    private static func status(of task: URLSessionTask) -> Int {
        (task.response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
