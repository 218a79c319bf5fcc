import Foundation
import Testing
@testable import TacitKit

@Suite("SocketCellularTransport")
struct SocketCellularTransportTests {
    @Test("a request leaves from the source address it is bound to", arguments: ["127.0.0.2", "127.0.0.1", "127.0.0.9"])
    func leavesFromSourceAddress(source: String) async throws {
        let server = try TestHTTPServer { _ in .respond(200, body: "hi") }
        defer { server.stop() }
        let transport = SocketCellularTransport(sourceAddress: source)
        let response = try await transport.send(CellularRequest(url: server.url("/x?y=1")))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "hi")
        #expect(server.requests.map(\.peer) == [source])
        #expect(server.requests.first?.target == "/x?y=1")
    }

    @Test("IPv6 loopback URLs work, bound to ::1")
    func ipv6() async throws {
        let server = try TestHTTPServer(host: "::1") { _ in .respond(204) }
        defer { server.stop() }
        let response = try await SocketCellularTransport(sourceAddress: "::1").send(CellularRequest(url: server.url("/")))
        #expect(response.status == 204)
        #expect(server.requests.first?.peer == "::1")
        #expect(server.requests.first?.headers["host"] == "[::1]:\(server.port)")
    }

    @Test("a POST carries its body and headers")
    func postBody() async throws {
        let server = try TestHTTPServer { _ in .respond(201) }
        defer { server.stop() }
        let request = CellularRequest(method: "POST", url: server.url("/p"), headers: ["X-Test": "1"], body: Data("{\"a\":1}".utf8))
        _ = try await SocketCellularTransport().send(request)
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.bodyText == "{\"a\":1}")
        #expect(seen.headers["x-test"] == "1")
    }

    @Test("chunked bodies are decoded, split across writes")
    func chunked() async throws {
        let server = try TestHTTPServer { _ in
            .raw(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "lo\r\n6\r\n world\r\n0\r\n\r\n"])
        }
        defer { server.stop() }
        let response = try await SocketCellularTransport().send(CellularRequest(url: server.url("/")))
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
    }

    @Test("a body without length ends when the server closes")
    func untilClose() async throws {
        let server = try TestHTTPServer { _ in .raw(["HTTP/1.1 200 OK\r\n\r\nall of it"]) }
        defer { server.stop() }
        let response = try await SocketCellularTransport().send(CellularRequest(url: server.url("/")))
        #expect(String(decoding: response.body, as: UTF8.self) == "all of it")
    }

    @Test("redirects are returned, not followed")
    func noRedirectFollowing() async throws {
        let server = try TestHTTPServer { _ in .respond(302, headers: ["Location": "/next"]) }
        defer { server.stop() }
        let response = try await SocketCellularTransport().send(CellularRequest(url: server.url("/")))
        #expect(response.status == 302)
        #expect(response.header("location") == "/next")
        #expect(server.requests.count == 1)
    }

    @Test("a server that never answers times out")
    func timeout() async throws {
        let server = try TestHTTPServer { _ in .hang }
        defer { server.stop() }
        await #expect(throws: CellularTransportError(.timeout, "timed out")) {
            try await SocketCellularTransport().send(CellularRequest(url: server.url("/"), timeout: .milliseconds(200)))
        }
    }

    @Test("a dropped connection is an error, not an empty response")
    func dropped() async throws {
        let server = try TestHTTPServer { _ in .drop }
        defer { server.stop() }
        await #expect(throws: CellularTransportError.self) {
            try await SocketCellularTransport().send(CellularRequest(url: server.url("/")))
        }
    }

    @Test("schemes other than http and https, and unknown interfaces, are refused up front")
    func refusals() async throws {
        await #expect(throws: CellularTransportError.self) {
            try await SocketCellularTransport().send(CellularRequest(url: URL(string: "ftp://127.0.0.1/")!))
        }
        #expect(SocketCellularTransport(interface: "nosuchif0").isAvailable == false)
        #expect(SocketCellularTransport(sourceAddress: "192.0.2.77").isAvailable == false)
        #expect(SocketCellularTransport(sourceAddress: "127.0.0.2").isAvailable)
    }
}
