import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TacitClient {
    /// Live timeline events after `after` over SSE.
    ///
    /// When the connection drops before `verification:summary`, it reconnects
    /// with `Last-Event-ID` and skips anything at or below the last seq it
    /// delivered, so each event arrives once, in order. It gives up with
    /// `network-error` after `maxReconnectAttempts` connections in a row that
    /// delivered nothing, and at once on a 4xx.
    public func eventStream(_ requestId: String, after: Int = 0) -> AsyncThrowingStream<TimelineEvent, any Error> {
        AsyncThrowingStream { continuation in
            // The pump is tied to the stream: dropping or cancelling the consumer cancels it.
            let pump = Task { await pumpEvents(requestId, after: after, into: continuation) }
            continuation.onTermination = { _ in pump.cancel() }
        }
    }

    private func pumpEvents(
        _ requestId: String, after: Int, into continuation: AsyncThrowingStream<TimelineEvent, any Error>.Continuation
    ) async {
        var lastSeq = after
        var failures = 0
        while !Task.isCancelled {
            let before = lastSeq
            do {
                if try await streamOnce(requestId, lastSeq: &lastSeq, into: continuation) {
                    return continuation.finish()
                }
            } catch let error as TacitError where !error.isTransient {
                return continuation.finish(throwing: error)
            } catch {}
            if Task.isCancelled { break }
            failures = lastSeq > before ? 1 : failures + 1
            if failures > maxReconnectAttempts {
                return continuation.finish(throwing: TacitError.network("the event stream could not be held"))
            }
            try? await Task.sleep(for: reconnectDelay * failures)
        }
        continuation.finish()
    }

    /// One SSE connection. Returns true once the summary event was delivered.
    private func streamOnce(
        _ requestId: String, lastSeq: inout Int,
        into continuation: AsyncThrowingStream<TimelineEvent, any Error>.Continuation
    ) async throws -> Bool {
        var req = request("GET", path(requestId, "events"),
                          query: [URLQueryItem(name: "after", value: String(lastSeq))])
        req.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if lastSeq > 0 { req.setValue(String(lastSeq), forHTTPHeaderField: "Last-Event-ID") }
        var parser = SSEParser()
        var status = 0
        var errorBody = Data()
        for try await chunk in SSEConnection.open(req, idleTimeout: 60) {
            switch chunk {
            case .response(let code):
                status = code
            case .data(let data, let code) where !(200..<300).contains(code):
                status = code
                errorBody.append(data)
            case .data(let data, _):
                for message in parser.feed(data) {
                    guard let event = try? TacitJSON.decoder().decode(TimelineEvent.self,
                                                                      from: Data(message.data.utf8)),
                          event.seq > lastSeq else { continue }
                    lastSeq = event.seq
                    continuation.yield(event)
                    if event.label == "verification:summary" { return true }
                }
            }
        }
        if !(200..<300).contains(status) {
            throw TacitError.from(status: status, body: errorBody, retryAfterHeader: nil)
        }
        return false
    }
}
