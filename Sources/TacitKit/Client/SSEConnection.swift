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
        case response(status: Int, retryAfter: String?)
        case data(Data)
    }

    private let continuation: AsyncThrowingStream<Chunk, any Error>.Continuation
    let chunks: AsyncThrowingStream<Chunk, any Error>

    private override init() {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: Chunk.self)
    }

    /// Starts the request; the connection ends when the returned stream is dropped.
    static func open(_ request: URLRequest, idleTimeout: TimeInterval) -> AsyncThrowingStream<Chunk, any Error> {
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

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        continuation.yield(.response(status: http?.statusCode ?? 0, retryAfter: http?.value(forHTTPHeaderField: "Retry-After")))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if error != nil {
            continuation.finish(throwing: TacitError.network("the event stream was interrupted"))
        } else {
            continuation.finish()
        }
    }
}
