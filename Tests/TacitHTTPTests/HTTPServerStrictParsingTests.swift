import Foundation
import Testing
import TacitTesting
import TacitHTTP
import Synchronization

@Suite("HTTPServer strict request parsing (RFC 9112)")
struct HTTPServerStrictParsingTests {
    /// A raw request the server must refuse before its handler runs. Each ends with a
    /// second, well-formed request: if the first's framing were taken loosely, that one
    /// would be answered too.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let status: Int
        let type: String
        let head: String
        var body = ""

        var testDescription: String { name }
        var bytes: [UInt8] { Array((head + body + HTTPServerStrictParsingTests.smuggled).utf8) }
    }

    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    static let refused: [Case] = [
        Case(name: "two different Content-Lengths", status: 400, type: "malformed-request",
             head: "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 30\r\n\r\n", body: "hello"),
        Case(name: "Content-Length with Transfer-Encoding", status: 400, type: "malformed-request",
             head: "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
             body: "0\r\n\r\n"),
        Case(name: "a NUL in a header value", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nX-Note: a\u{0}b\r\n\r\n"),
        Case(name: "a control character in a header value", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nX-Note: a\u{1}b\r\n\r\n"),
        Case(name: "a lone CR in a header value", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nX-Note: a\rb\r\n\r\n"),
        Case(name: "obs-fold", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n  b\r\n\r\n"),
        Case(name: "bare LF line ends", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\nHost: x\nX-Note: a\n\n"),
        Case(name: "one bare LF among CRLFs", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\nX-Note: a\r\n\r\n"),
        Case(name: "whitespace before a colon", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nX-Note : a\r\n\r\n"),
        Case(name: "a missing Host on HTTP/1.1", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nX-Note: a\r\n\r\n"),
        Case(name: "two Host headers", status: 400, type: "malformed-request",
             head: "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n"),
        Case(name: "chunked twice", status: 400, type: "malformed-request",
             head: "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", body: "0\r\n\r\n"),
        Case(name: "an unknown transfer coding", status: 501, type: "transfer-coding-not-implemented",
             head: "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", body: "abc"),
        Case(name: "an unknown coding before chunked", status: 501, type: "transfer-coding-not-implemented",
             head: "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", body: "0\r\n\r\n"),
    ]

    final class Calls: Sendable {
        let paths = Mutex<[String]>([])
        var handler: HTTPHandler {
            { [self] request in
                paths.withLock { $0.append(request.path) }
                return .text("handled \(request.path)")
            }
        }
    }

    @Test("a request with invalid framing is refused before its handler runs, and nothing after it is read",
          arguments: refused)
    func refusesBeforeHandler(_ request: Case) async throws {
        let calls = Calls()
        try await withLiveServer(handler: calls.handler) { server, _ in
            let port = server.port
            let bytes = request.bytes
            let text = try await offThePool {
                let connection = try RawConnection(port: port)
                try connection.send(bytes)
                return try connection.readToEnd()
            }
            #expect(text.hasPrefix("HTTP/1.1 \(request.status) "))
            #expect(text.contains("Content-Type: application/problem+json"))
            #expect(text.contains("\"type\":\"\(request.type)\""))
            #expect(text.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }.count == 1, "one answer only")
            #expect(!text.contains("handled"))
            #expect(calls.paths.withLock { $0 }.isEmpty)
        }
    }

    @Test("well-formed requests pass the screen: identical Content-Lengths, chunked, HTTP/1.0 without Host, empty and tabbed values")
    func acceptsWellFormed() async throws {
        let calls = Calls()
        try await withLiveServer(handler: calls.handler) { server, _ in
            let port = server.port
            let text = try await offThePool {
                let connection = try RawConnection(port: port)
                try connection.send("POST /same HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok"
                    + "POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-Empty:\r\n\r\n2\r\nok\r\n0\r\n\r\n"
                    + "GET /tabbed HTTP/1.1\r\nHost: x\r\nX-Note:\ta\tb \r\nCookie: a=b; c=d\r\n\r\n"
                    + "GET /old HTTP/1.0\r\n\r\n")
                return try connection.readToEnd()
            }
            #expect(text.components(separatedBy: " 200 OK\r\n").count == 5)
            #expect(calls.paths.withLock { $0 } == ["/same", "/chunked", "/tabbed", "/old"])
        }
    }
}
