import Foundation
import Testing
import TacitTesting
@testable import TacitHTTP
import Synchronization

@Suite("HTTPServer slow clients")
struct HTTPServerSlowClientTests {
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
        var handler: HTTPHandler {
            { [self] request in
                if request.path != "/healthz" { count.add(1, ordering: .relaxed) }
                return .text("ok")
            }
        }
    }

    /// Asks for `/healthz` from 127.0.0.1 on a fresh connection; the time it took, or nil
    /// when it was not answered 200.
    static func health(port: Int) throws -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        let connection = try RawConnection(port: port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = try connection.readToEnd()
        return text.hasPrefix("HTTP/1.1 200") ? clock.now - start : nil
    }

    @Test("100 slow connections from one address hold only its share, and /healthz answers from another meanwhile")
    func slowlorisLeavesHealthAnswering() async throws {
        let calls = Calls()
        let configure: (inout HTTPServer.Configuration) -> Void = {
            $0.connectionLimit = 64
            $0.connectionsPerAddress = 16
            $0.requestDeadline = .seconds(30)
        }
        try await withLiveServer(configure, handler: calls.handler) { server, _ in
            let port = server.port
            let (held, refused, probes) = try await offThePool { () -> (Int, Int, [Duration?]) in
                let slow = try SlowClients(count: 100, port: port, source: "127.0.0.2")
                var probes: [Duration?] = []
                for _ in 0..<5 {
                    slow.trickle()
                    probes.append(try? Self.health(port: port))
                }
                return (slow.held.count, slow.refused, probes)
            }
            // Without the limit 64 are held and the rest wait, unaccepted, as the probes do.
            #expect(held == 16)
            #expect(refused == 84)
            // Without the limit the server closes each probe as it accepts it; the bound is
            // loose because the whole suite shares two cores.
            #expect(probes.allSatisfy { $0.map { $0 < .seconds(5) } ?? false }, "every probe answered: \(probes)")
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a request whose headers trickle in a byte every 200 ms is closed at its 1 s deadline")
    func trickledHeadersAreCutOff() async throws {
        let calls = Calls()
        try await withLiveServer({ $0.requestDeadline = .seconds(1) }, handler: calls.handler) { server, _ in
            let port = server.port
            let kept = try await offThePool { () -> Duration? in
                let connection = try RawConnection(port: port)
                let request = "GET /slow HTTP/1.1\r\nHost: x\r\nX-Pad: " + String(repeating: "a", count: 40) + "\r\n\r\n"
                return connection.trickle(Array(request.utf8), every: .milliseconds(200), for: .seconds(6))
            }
            #expect(kept.map { $0 >= .milliseconds(900) && $0 < .seconds(5) } ?? false, "closed after \(String(describing: kept))")
            #expect(server.requestsCutOff == 1)
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a body that trickles past the deadline is cut off too, before its handler runs")
    func trickledBodyIsCutOff() async throws {
        let calls = Calls()
        try await withLiveServer({ $0.requestDeadline = .seconds(1) }, handler: calls.handler) { server, _ in
            let port = server.port
            let kept = try await offThePool { () -> Duration? in
                let connection = try RawConnection(port: port)
                try connection.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n")
                return connection.trickle(Array(repeating: 97, count: 40), every: .milliseconds(200), for: .seconds(6))
            }
            #expect(kept.map { $0 >= .milliseconds(900) && $0 < .seconds(5) } ?? false, "closed after \(String(describing: kept))")
            #expect(calls.count.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a handler that outlasts the deadline still answers, and the kept-alive connection serves another request")
    func handlersAreNotCutOff() async throws {
        let gate = Gate()
        let handler: HTTPHandler = { request in
            if request.path == "/wait" { await gate.pass() }
            return .text("done \(request.path)")
        }
        try await withLiveServer({ $0.requestDeadline = .seconds(1) }, handler: handler) { server, _ in
            let port = server.port
            let connection = try await offThePool { () -> RawConnection in
                let connection = try RawConnection(port: port)
                try connection.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
                return connection
            }
            await gate.waitForArrivals(1)
            // The deadline itself has to pass while the handler works.
            try await Task.sleep(for: .milliseconds(1_500))
            gate.open()
            let text = try await offThePool {
                _ = try connection.read(until: "done /wait")
                try connection.send("GET /again HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try connection.readToEnd()
            }
            #expect(text.contains("done /wait"))
            #expect(text.contains("done /again"))
            #expect(server.requestsCutOff == 0)
        }
    }
}
