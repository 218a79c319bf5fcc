import Testing
import TacitTesting
import TacitHTTP

@Suite("HTTPServer peer address")
struct RemoteAddressTests {
    static let showAddress: HTTPHandler = { request in .text("peer=" + request.remoteAddress + ";") }

    @Test("a client bound to 127.0.0.2 is seen as 127.0.0.2", arguments: ["127.0.0.2", "127.0.0.9", "127.0.0.1"])
    func seesSourceAddress(source: String) async throws {
        try await withLiveServer(handler: Self.showAddress) { server, _ in
            let port = server.port
            let text = try await offThePool {
                let connection = try RawConnection(port: port, source: source)
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try connection.readToEnd()
            }
            #expect(text.contains("peer=\(source);"))
        }
    }

    @Test("an IPv6 loopback server sees ::1")
    func seesIPv6Loopback() async throws {
        try await withLiveServer({ $0.host = "::1" }, handler: Self.showAddress) { server, _ in
            let port = server.port
            let text = try await offThePool {
                let connection = try RawConnection(port: port, host: "::1")
                try connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try connection.readToEnd()
            }
            #expect(text.contains("peer=::1;"))
        }
    }
}
