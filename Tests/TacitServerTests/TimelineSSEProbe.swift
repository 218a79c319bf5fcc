import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TacitKit

/// A raw SSE reader over URLSession's delegate API: it hands back each message as sent
/// (no reconnects, no de-duplication) so tests see exactly what the server streams.
final class TimelineSSEProbe: NSObject, URLSessionDataDelegate, Sendable {
    struct Message: Sendable {
        var id: Int?
        var data: String
        var label: String? {
            let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
            return object?["label"] as? String
        }
    }

    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let bytes: AsyncThrowingStream<[UInt8], any Error>
    private let task = Mutex<URLSessionDataTask?>(nil)
    private let raw = Mutex<[UInt8]>([])
    private let parser = Mutex(SSEParser())

    init(_ base: URL, id: String, lastEventID: Int? = nil, after: Int? = nil, authorization: String? = nil) {
        (bytes, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        super.init()
        var url = base.appendingPathComponent("v1/verifications/\(id)/events")
        if let after { url = URL(string: url.absoluteString + "?after=\(after)")! }
        var request = URLRequest(url: url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let lastEventID { request.setValue(String(lastEventID), forHTTPHeaderField: "Last-Event-ID") }
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 30
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let dataTask = session.dataTask(with: request)
        task.withLock { $0 = dataTask }
        dataTask.resume()
    }

    /// Everything received so far, comments included.
    var received: String { raw.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Messages until one satisfies `stop` (included) or the stream ends.
    func messages(until stop: @Sendable (Message) -> Bool = { _ in false }) async throws -> [Message] {
        var collected: [Message] = []
        for try await chunk in bytes {
            for message in parser.withLock({ $0.feed(chunk) }) {
                let item = Message(id: message.id.flatMap { Int($0) }, data: message.data)
                collected.append(item)
                if stop(item) { return collected }
            }
        }
        return collected
    }

    /// Reads until the raw bytes contain `marker` (comments included); false when the stream ended first.
    func waitFor(_ marker: String) async throws -> Bool {
        if received.contains(marker) { return true }
        for try await chunk in bytes {
            _ = parser.withLock { $0.feed(chunk) }
            if received.contains(marker) { return true }
        }
        return false
    }

    /// Drops the connection, as a client that goes away mid-flow.
    func disconnect() {
        task.withLock { $0?.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        raw.withLock { $0.append(contentsOf: data) }
        continuation.yield(Array(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}
