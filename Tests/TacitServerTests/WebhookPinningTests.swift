import Foundation
import Glibc
import Synchronization
import Testing
import TacitCore
@testable import TacitServer
import TacitTesting

/// The webhook target guard resolves a name once, and a plain-http webhook goes to the
/// address it checked, with the name in `Host`: a name that resolves elsewhere the second
/// time (DNS rebinding) can't move the call. Names are resolved by an injected resolver,
/// never by DNS, and the only connection made is to a listener on loopback.
@Suite("Webhook targets are pinned to the address the guard checked", .timeLimit(.minutes(1)))
struct WebhookPinningTests {
    @Test("an http target is called at the public address the guard checked, with the name in Host, after one resolution")
    func httpTargetIsPinned() throws {
        let calls = Mutex(0)
        let targetGuard = WebhookTargetGuard(allowPrivate: false, resolve: { _ in
            calls.withLock { count in
                count += 1
                return count == 1 ? [[93, 184, 216, 34]] : [[127, 0, 0, 1]]
            }
        })
        let target = try #require(targetGuard.target(for: URL(string: "http://hooks.example.test:8080/tacit?x=1")!))
        #expect(target.url.absoluteString == "http://93.184.216.34:8080/tacit?x=1")
        #expect(target.headers.map { "\($0.0): \($0.1)" } == ["Host: hooks.example.test:8080"])
        #expect(calls.withLock { $0 } == 1, "resolved once; the HTTP client is handed an address, not the name")
        let six = WebhookTargetGuard(allowPrivate: false, resolve: { _ in
            [[0x20, 0x01, 0x48, 0x60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x88, 0x88]] })
        #expect(six.target(for: URL(string: "http://hooks.example.test/h")!)?.url.absoluteString
                == "http://[2001:4860:0:0:0:0:0:8888]/h")
    }

    @Test("a name resolving to a private address is refused; an https target keeps its name for TLS to check")
    func refusalsAndHTTPS() {
        let loopback = WebhookTargetGuard(allowPrivate: false, resolve: { _ in [[127, 0, 0, 1]] })
        #expect(loopback.target(for: URL(string: "http://hooks.example.test/h")!) == nil)
        let public4 = WebhookTargetGuard(allowPrivate: false, resolve: { _ in [[93, 184, 216, 34]] })
        let secure = public4.target(for: URL(string: "https://hooks.example.test/h")!)
        #expect(secure?.url.absoluteString == "https://hooks.example.test/h")
        #expect(secure?.headers.isEmpty == true)
    }

    @Test("over loopback, the outbound client connects to the pinned address and the receiver sees the original Host")
    func pinnedCallCarriesTheName() async throws {
        let seen = Mutex<String?>(nil)
        let listener = try LoopbackListener { fd in
            var buffer = [UInt8](repeating: 0, count: 8192)
            let count = read(fd, &buffer, buffer.count)
            let head = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            seen.withLock { $0 = head }
            let answer = "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = answer.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        defer { listener.stop() }
        // Private targets allowed (a local receiver), so loopback passes the check; it is still pinned.
        let targetGuard = WebhookTargetGuard(allowPrivate: true, resolve: { _ in [[127, 0, 0, 1]] })
        let target = try #require(targetGuard.target(for: URL(string: "http://hooks.example.test:\(listener.port)/in")!))
        let request = OutboundRequest(method: "POST", url: target.url, headers: target.headers, body: Array("{}".utf8),
                                      timeout: 10)
        let answer = try await URLSessionHTTPClient().send(request)
        #expect(answer.status == 204)
        let head = try #require(seen.withLock { $0 })
        #expect(head.lowercased().contains("host: hooks.example.test:\(listener.port)"), "\(head)")
    }
}
