import Foundation
import Synchronization
import Testing
@testable import TacitHTTP
import TacitKit
import TacitTesting

/// The server over TLS behaves as it does over plain HTTP: the same answers, streams,
/// request screen, deadlines and per-address limits, with a certificate made for the test.
@Suite("HTTPServer over TLS", .timeLimit(.minutes(1)))
struct HTTPServerTLSTests {
    static let credentials = TestCertificates.shared.loopback.credentials
    static let transport = SocketCellularTransport(extraTrust: [.pem(TestCertificates.shared.authorityPEM)])

    static func tls(_ more: @escaping (inout HTTPServer.Configuration) -> Void = { _ in }) -> (inout HTTPServer.Configuration) -> Void {
        { configuration in
            configuration.tls = credentials
            more(&configuration)
        }
    }

    final class Calls: Sendable {
        let paths = Mutex<[String]>([])
        var handler: HTTPHandler {
            { [self] request in
                paths.withLock { $0.append(request.path) }
                return HTTPResponse(status: 201, headers: [("X-Echo", request.path)], body: .bytes(Array("secure \(request.method)".utf8)))
            }
        }
        var count: Int { paths.withLock { $0.count } }
    }

    @Test("an HTTPS request gets its status, headers and body over a verified connection")
    func requestAndResponse() async throws {
        let calls = Calls()
        try await withLiveServer(Self.tls(), handler: calls.handler) { server, _ in
            let url = URL(string: "https://127.0.0.1:\(server.port)/hello?x=1")!
            let response = try await Self.transport.send(CellularRequest(method: "POST", url: url, body: Data("{}".utf8)))
            #expect(response.status == 201)
            #expect(response.header("x-echo") == "/hello")
            #expect(String(decoding: response.body, as: UTF8.self) == "secure POST")
        }
    }

    @Test("a plain-HTTP request to the TLS port is closed without an answer or a handler, and HTTPS still works after it")
    func plainHTTPRefused() async throws {
        let calls = Calls()
        try await withLiveServer(Self.tls(), handler: calls.handler) { server, _ in
            let port = server.port
            let answer = try await offThePool { () -> String in
                let connection = try RawConnection(port: port)
                try connection.send("GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return (try? connection.readToEnd()) ?? ""
            }
            #expect(!answer.contains("HTTP/1."))
            #expect(calls.count == 0)
            let response = try await Self.transport.send(CellularRequest(url: URL(string: "https://127.0.0.1:\(port)/after")!))
            #expect(response.status == 201)
            #expect(calls.paths.withLock { $0 } == ["/after"])
        }
    }

    @Test("an event stream over TLS delivers each chunk as it is yielded, then ends with the stream")
    func streamOverTLS() async throws {
        let hub = StreamHub()
        try await withLiveServer(Self.tls(), handler: hub.handler) { server, _ in
            let port = server.port
            let connection = try await offThePool { () -> TLSConnection in
                let connection = try TLSConnection(port: port)
                try connection.send(RawConnection.eventStreamRequest)
                return connection
            }
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
        }
    }

    @Test("the request screen refuses each invalid framing over TLS as it does over plain HTTP, before its handler runs",
          arguments: HTTPServerStrictParsingTests.refused)
    func screenOverTLS(_ request: HTTPServerStrictParsingTests.Case) async throws {
        let calls = Calls()
        try await withLiveServer(Self.tls(), handler: calls.handler) { server, _ in
            let port = server.port
            let bytes = request.bytes
            let text = try await offThePool { () -> String in
                let connection = try TLSConnection(port: port)
                try connection.send(String(decoding: bytes, as: UTF8.self))
                return connection.readToEnd()
            }
            #expect(text.hasPrefix("HTTP/1.1 \(request.status) "))
            #expect(text.contains("\"type\":\"\(request.type)\""))
            #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }.count == 1, "one answer only")
            #expect(calls.count == 0)
        }
    }

    @Test("a request whose headers stop half-way over TLS is closed at its deadline, counted from the accept")
    func deadlineOverTLS() async throws {
        let calls = Calls()
        // Long enough for a handshake on a loaded machine: the handshake counts toward it.
        try await withLiveServer(Self.tls { $0.requestDeadline = .seconds(2) }, handler: calls.handler) { server, _ in
            let port = server.port
            let (kept, text) = try await offThePool { () -> (Duration, String) in
                let start = ContinuousClock.now
                let connection = try TLSConnection(port: port)
                try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
                let text = connection.readToEnd()
                return (ContinuousClock.now - start, text)
            }
            #expect(kept >= .milliseconds(1_900) && kept < .seconds(6), "closed after \(kept)")
            #expect(text.isEmpty)
            #expect(server.requestsCutOff == 1)
            #expect(calls.count == 0)
        }
    }

    @Test("a connection that never starts its TLS handshake is closed at the request deadline too")
    func stalledHandshakeIsCutOff() async throws {
        let calls = Calls()
        try await withLiveServer(Self.tls { $0.requestDeadline = .seconds(1) }, handler: calls.handler) { server, _ in
            let port = server.port
            let kept = try await offThePool { () -> Duration in
                let start = ContinuousClock.now
                let connection = try RawConnection(port: port)
                _ = try? connection.readToEnd()
                return ContinuousClock.now - start
            }
            #expect(kept >= .milliseconds(900) && kept < .seconds(5), "closed after \(kept)")
            #expect(server.requestsCutOff == 1)
        }
    }

    @Test("connections beyond the per-address limit are closed at accept, before their handshake ends")
    func perAddressLimitOverTLS() async throws {
        let calls = Calls()
        try await withLiveServer(Self.tls { $0.connectionsPerAddress = 2 }, handler: calls.handler) { server, _ in
            let port = server.port
            let (held, refused) = try await offThePool { () -> ([TLSConnection], Int) in
                var held: [TLSConnection] = []
                var refused = 0
                for _ in 0..<4 {
                    if let connection = try? TLSConnection(port: port, source: "127.0.0.3") { held.append(connection) } else { refused += 1 }
                }
                return (held, refused)
            }
            #expect(held.count == 2)
            #expect(refused == 2)
            let other = try await offThePool { () -> String in
                let connection = try TLSConnection(port: port, source: "127.0.0.4")
                try connection.send("GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return connection.readToEnd()
            }
            #expect(other.hasPrefix("HTTP/1.1 201"))
            withExtendedLifetime(held) {}
        }
    }

    @Test("a server told to use TLS with a key that is not PEM fails to start with tls-failed")
    func badCredentialsFailStart() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.tls = TLSCredentials(certificateChainPEM: Self.credentials.certificateChainPEM, privateKeyPEM: "not a key")
        let server = HTTPServer(configuration: configuration) { _ in .text("never") }
        let error = #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(error?.code == .tlsFailed)
    }

    @Test("the credentials' description, debug description and dump never show the key, nor a configuration holding them")
    func descriptionHidesKey() {
        var dumped = ""
        dump(Self.credentials, to: &dumped)
        var configuration = HTTPServer.Configuration()
        configuration.tls = Self.credentials
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        let texts = ["\(Self.credentials)", String(reflecting: Self.credentials), dumped, "\(configuration)", dumpedConfiguration]
        #expect(Self.credentials.privateKeyPEM.contains("PRIVATE KEY"))
        #expect(texts.allSatisfy { !$0.contains("PRIVATE KEY") })
    }
}
