import Testing
import TacitTesting
@testable import TacitHTTP

@Suite("HTTPServer streaming responses", .timeLimit(.minutes(1)))
struct HTTPServerStreamTests {
    @Test("chunks arrive in order as they are yielded, and the response ends with the stream")
    func chunksInOrder() async throws {
        let hub = StreamHub()
        try await withLiveServer(handler: hub.handler) { server, _ in
            let connection = try await RawConnection.eventStream(port: server.port)
            await hub.opened.wait(for: 1)
            for index in 1...3 {
                hub.yieldAll("data: \(index)\n\n")
                let text = try await offThePool { try connection.read(until: "data: \(index)\n\n") }
                #expect(!text.contains("data: \(index + 1)"))
            }
            hub.finishAll()
            let text = try await offThePool { try connection.read(until: "\r\n0\r\n\r\n") }
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("Content-Type: text/event-stream"))
            let body = text.components(separatedBy: "data: ").dropFirst().map { $0.prefix(1) }
            #expect(body == ["1", "2", "3"])
        }
    }

    @Test("an idle stream is not polled: its reader runs only when a chunk arrives")
    func idleStreamDoesNotSpin() async throws {
        let writer = StreamWriter()
        writer.write(Array("data: first\n\n".utf8))
        try await withLiveServer(handler: { request in
            request.path == "/ping" ? .text("pong") : .eventStream(writer)
        }) { server, client in
            let connection = try await RawConnection.eventStream(port: server.port, readingUntil: "data: first")
            // The reader runs once more after the chunk the client has read, and only then
            // suspends the connection: counting starts from there.
            try #require(await yieldUntil { writer.isIdle }, "the reader never suspended the connection")
            let before = server.streamReaderCalls
            for _ in 0..<20 { #expect(try await client.send("GET", "/ping").text == "pong") }
            #expect(server.streamReaderCalls == before)
            writer.write(Array("data: second\n\n".utf8))
            _ = try await offThePool { try connection.read(until: "data: second") }
            #expect(server.streamReaderCalls - before <= 3)
        }
    }

    @Test("a client that disconnects cancels the stream, so its onTermination runs")
    func disconnectTerminatesStream() async throws {
        let hub = StreamHub()
        try await withLiveServer(handler: hub.handler) { server, _ in
            let connection = try await RawConnection.eventStream(port: server.port)
            await hub.opened.wait(for: 1)
            // Closing only after the stream opened, else the reset could beat the request.
            try await connection.abort(serverPort: server.port)
            // The connection is suspended while idle; the next chunk's write, made once the
            // reset has arrived, finds it gone (a reset that came before it suspended is found at once).
            hub.yieldAll("data: anyone there?\n\n")
            await hub.terminated.wait(for: 1)
            #expect(hub.terminated.value == 1)
        }
    }

    @Test("200 concurrent streams on a 2-thread pool all receive their chunks")
    func manyStreams() async throws {
        let hub = StreamHub()
        let count = 200
        try await withLiveServer({ $0.threadPoolSize = 2 }, handler: hub.handler) { server, _ in
            let port = server.port
            let batch = ConnectionBatch()
            try await offThePool {
                for _ in 0..<count {
                    let connection = try RawConnection(port: port)
                    try connection.send(RawConnection.eventStreamRequest)
                    batch.connections.append(connection)
                }
            }
            await hub.opened.wait(for: count)
            hub.yieldAll("data: one\n\n")
            hub.yieldAll("data: two\n\n")
            hub.finishAll()
            let complete = try await offThePool {
                try batch.connections.filter { connection in
                    let text = try connection.read(until: "\r\n0\r\n\r\n")
                    return text.contains("data: one\n\n") && text.contains("data: two\n\n")
                }.count
            }
            #expect(complete == count)
            await hub.terminated.wait(for: count)
        }
    }

    @Test("shutdown ends open streams and cancels their producers")
    func shutdownEndsStreams() async throws {
        let hub = StreamHub(greeting: "data: hello\n\n")
        let server = HTTPServer(configuration: .init(port: 0), handler: hub.handler)
        try server.start()
        let connection = try await RawConnection.eventStream(port: server.port, readingUntil: "data: hello")
        await server.shutdown()
        let text = try await offThePool { try connection.readToEnd() }
        #expect(text.hasSuffix("\r\n0\r\n\r\n"))
        await hub.terminated.wait(for: 1)
    }
}
