import Foundation
import TacitTesting
import Testing
@testable import TacitHTTP

@Suite("HTTPServer async handlers and overload", .timeLimit(.minutes(1)))
struct HTTPServerConcurrencyTests {
    @Test("50 handlers awaiting at once on a 1-thread pool all get in, then all complete")
    func handlersDoNotHoldThreads() async throws {
        let gate = Gate()
        let handler: HTTPHandler = { request in
            await gate.pass()
            return .text(request.path)
        }
        try await withLiveServer({ $0.threadPoolSize = 1 }, handler: handler) { _, client in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<50 {
                    group.addTask { try await client.send("GET", "/r\(index)").text == "/r\(index)" }
                }
                await gate.waitForArrivals(50)
                #expect(gate.arrivals == 50)
                gate.open()
                var correct = 0
                for try await ok in group where ok { correct += 1 }
                #expect(correct == 50)
            }
        }
    }

    @Test("past maxInFlight a request answers 503 with Retry-After at once, while /healthz still answers")
    func overloadGuard() async throws {
        let gate = Gate()
        let handler: HTTPHandler = { request in
            if request.path == "/healthz" { return .text("ok") }
            await gate.pass()
            return .text("done")
        }
        try await withLiveServer({ $0.maxInFlight = 3 }, handler: handler) { _, client in
            async let blocked = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<3 { group.addTask { try await client.send("GET", "/slow").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            await gate.waitForArrivals(3)
            let rejected = try await client.send("GET", "/slow")
            #expect(rejected.status == 503)
            #expect(rejected.header("Retry-After") == "1")
            #expect(rejected.header("Content-Type") == "application/problem+json")
            #expect(rejected.json["type"] as? String == "overloaded")
            let health = try await client.send("GET", "/healthz")
            #expect(health.status == 200)
            #expect(gate.arrivals == 3)
            gate.open()
            #expect(try await blocked == [200, 200, 200])
            #expect(try await client.send("GET", "/slow").status == 200)
        }
    }

    @Test("while shutdown drains, a new connection is closed unanswered and the running handler still answers")
    func shutdownWaitsForInFlight() async throws {
        let gate = Gate()
        let handler: HTTPHandler = { _ in
            await gate.pass()
            return .text("finished")
        }
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.shutdownGracePeriod = .seconds(5)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        let port = server.port
        let client = HTTPClient(port: port)
        async let reply = client.send("GET", "/job")
        await gate.waitForArrivals(1)
        async let stopped: Void = server.shutdown()
        try #require(await yieldUntil { server.isShuttingDown })
        // Admitted, the request would be answered 503; turned away, it gets no byte at all.
        let text = try await offThePool { () -> String in
            let connection = try RawConnection(port: port)
            try? connection.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
            return (try? connection.readToEnd()) ?? ""
        }
        #expect(text.isEmpty, "\(text)")
        gate.open()
        await stopped
        #expect(try await reply.text == "finished")
        await #expect(throws: (any Error).self) { try await client.send("GET", "/after") }
    }

    @Test("shutdown answers a handler that outlives the grace period with 503")
    func shutdownBoundsInFlight() async throws {
        let gate = Gate()
        let handler: HTTPHandler = { _ in
            await gate.pass()
            return .text("too late")
        }
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.shutdownGracePeriod = .milliseconds(50)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        // A raw socket, read on a thread of its own: what the server sent is all this test
        // looks at, with no client library's queues between the bytes and the assertions.
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /stuck HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        await gate.waitForArrivals(1)
        await server.shutdown()
        let text = try await offThePool { try connection.readToEnd() }
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(head.hasPrefix("HTTP/1.1 503"), "\(head)")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        #expect(json?["type"] as? String == "shutting-down")
        gate.open()
    }

    @Test("starting on a port that is taken throws addressInUse")
    func portTaken() async throws {
        try await withLiveServer(handler: { _ in .text("") }) { server, _ in
            let second = HTTPServer(configuration: .init(port: server.port), handler: { _ in .text("") })
            let error = #expect(throws: HTTPServerError.self) { try second.start() }
            #expect(error?.code == .addressInUse)
        }
    }

    @Test("run() serves until its task is cancelled, then the port closes")
    func runUntilCancelled() async throws {
        let server = HTTPServer(configuration: .init(port: 0), handler: { _ in .text("up") })
        try server.start()
        let client = HTTPClient(port: server.port)
        let running = Task { try await server.run() }
        #expect(try await client.send("GET", "/").text == "up")
        running.cancel()
        try await running.value
        await #expect(throws: (any Error).self) { try await client.send("GET", "/") }
    }
}
