import Testing
import TacitTesting
@testable import TacitHTTP

@Suite("HTTPServer writer-driven streams", .timeLimit(.minutes(1)))
struct StreamWriterTests {
    @Test("bytes written before the response is sent come first, later writes follow in order, finish ends it")
    func writesInOrder() async throws {
        let writer = StreamWriter()
        writer.write(Array("data: early\n\n".utf8))
        try await withLiveServer(handler: { _ in .eventStream(writer) }) { server, _ in
            let connection = try await RawConnection.eventStream(port: server.port, readingUntil: "data: early\n\n")
            for index in 1...3 {
                writer.write(Array("data: \(index)\n\n".utf8))
                _ = try await offThePool { try connection.read(until: "data: \(index)\n\n") }
            }
            writer.finish()
            let text = try await offThePool { try connection.read(until: "\r\n0\r\n\r\n") }
            #expect(!text.contains("data: 4"))
            #expect(writer.isEnded)
        }
    }

    @Test("a client that disconnects ends the writer and runs onTermination once")
    func disconnectTerminates() async throws {
        let writer = StreamWriter()
        let ended = AsyncCounter()
        writer.onTermination = { ended.increment() }
        writer.write(Array("data: hello\n\n".utf8))
        try await withLiveServer(handler: { _ in .eventStream(writer) }) { server, _ in
            // Closing only after the stream opened, else the reset could beat the request.
            let connection = try await RawConnection.eventStream(port: server.port, readingUntil: "data: hello")
            try await connection.abort(serverPort: server.port)
            // The departed client is noticed on the next write, once its reset has arrived (or
            // before, when the reset came before the connection suspended itself on the empty buffer).
            writer.write(Array("data: anyone?\n\n".utf8))
            await ended.wait(for: 1)
            writer.finish()
            #expect(ended.value == 1)
            #expect(writer.isEnded)
        }
    }

    @Test("onTermination set after the end runs at once; writes after the end are dropped")
    func lateTermination() {
        let writer = StreamWriter()
        writer.finish()
        let ran = AsyncCounter()
        writer.onTermination = { ran.increment() }
        writer.write([1, 2, 3])
        writer.close()
        #expect(ran.value == 1)
        #expect(writer.isEnded)
    }
}
