import Foundation
import Testing
@testable import TacitKit

@Suite("TacitClient event stream", .timeLimit(.minutes(1)))
struct TacitClientEventStreamTests {
    static func client(_ server: TestHTTPServer) -> TacitClient {
        var client = TacitClient(baseURL: server.baseURL)
        client.reconnectDelay = .zero
        client.maxReconnectAttempts = 2
        return client
    }

    @Test("reconnects with Last-Event-ID after a drop and delivers each event once")
    func resume() async throws {
        let replies = ScriptedReplies([
            .raw([EventJSON.head, ": ping\n\n", EventJSON.sse(1, "sms:started"), EventJSON.sse(2, "sms:code_sent")]),
            .raw([EventJSON.head, EventJSON.sse(2, "sms:code_sent"), EventJSON.sse(3, "sms:completed"),
                  EventJSON.sse(4, "verification:completed"), EventJSON.sse(5, "verification:summary"), EventJSON.sse(6, "late:ignored")]),
        ])
        let server = try TestHTTPServer { _ in replies.next() }
        defer { server.stop() }
        var seqs: [Int] = []
        for try await event in Self.client(server).eventStream("req-1", after: 0) { seqs.append(event.seq) }
        #expect(seqs == [1, 2, 3, 4, 5])
        let connections = server.requests
        #expect(connections.count == 2)
        #expect(connections.allSatisfy { $0.headers["accept"] == "text/event-stream" })
        #expect(connections[0].headers["last-event-id"] == nil)
        #expect(connections[1].headers["last-event-id"] == "2")
        #expect(connections[1].target.hasSuffix("after=2"))
    }

    @Test("a 404 ends the stream at once with the problem")
    func notFound() async throws {
        let server = try TestHTTPServer { _ in .respond(404, body: #"{"type":"not-found","title":"No","status":404}"#) }
        defer { server.stop() }
        let error = await #expect(throws: TacitError.self) {
            for try await _ in Self.client(server).eventStream("nope", after: 0) {}
        }
        #expect(error?.type == "not-found")
        #expect(server.requests.count == 1)
    }

    @Test("a server that keeps dropping the stream ends it with a network-error")
    func givesUp() async throws {
        let server = try TestHTTPServer { _ in .drop }
        defer { server.stop() }
        let error = await #expect(throws: TacitError.self) {
            for try await _ in Self.client(server).eventStream("req-1", after: 0) {}
        }
        #expect(error?.type == "network-error")
        #expect(server.requests.count == 3)
    }
}
