import Foundation
import Glibc

/// A tiny scripted HTTP/1.1 server on an ephemeral loopback port. Each
/// connection carries one request; the handler decides the reply. It records
/// every request with the peer address the connection came from.
final class TestHTTPServer: @unchecked Sendable {
    // Safe to share: `recorded` is only touched under `lock`; the rest is immutable.
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: Data
        var peer: String
        var path: String { String(target.split(separator: "?").first ?? "") }
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    enum Reply: Sendable {
        case respond(Int, headers: [String: String] = [:], body: String = "")
        /// Bytes written as they are, then the connection closes.
        case raw([String])
        /// Closes the connection without answering.
        case drop
        /// Never answers; waits for the client to give up.
        case hang
    }

    let port: Int
    let host: String
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var recorded: [Request] = []
    /// Under `lock`: `stop()` was called; the accept loop has closed the listener. A stop
    /// after the close must not shut down whatever socket the descriptor's number went to.
    private var stopping = false, listenerClosed = false
    let arrivals: AsyncStream<Request>
    private let arrival: AsyncStream<Request>.Continuation

    init(host: String = "127.0.0.1", handler: @escaping @Sendable (Request) -> Reply) throws {
        self.host = host
        self.handler = handler
        (arrivals, arrival) = AsyncStream.makeStream(of: Request.self)
        (listener, port) = try Self.listen(host: host)
        Thread.detachNewThread { [self] in acceptLoop() }
    }


    var baseURL: URL { URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")! }

    func url(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }

    var requests: [Request] { lock.withLock { recorded } }

    func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

    func stop() {
        lock.withLock {
            stopping = true
            if !listenerClosed { _ = shutdown(listener, Int32(SHUT_RDWR)) }
        }
        arrival.finish()
    }

    private static func listen(host: String) throws -> (Int32, Int) {
        let v6 = host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var storage = sockaddr_storage()
        var length = socklen_t(v6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        withUnsafeMutableBytes(of: &storage) { raw in
            if v6 {
                let sin6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                sin6.pointee.sin6_family = sa_family_t(AF_INET6)
                inet_pton(AF_INET6, host, &sin6.pointee.sin6_addr)
            } else {
                let sin = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                sin.pointee.sin_family = sa_family_t(AF_INET)
                inet_pton(AF_INET, host, &sin.pointee.sin_addr)
            }
        }
        let ok = withUnsafeMutablePointer(to: &storage) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && Glibc.listen(fd, 64) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard fd >= 0, ok else { throw POSIXError(.EADDRNOTAVAIL) }
        let port = withUnsafeBytes(of: &storage) { raw in
            v6 ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
        }
        return (fd, Int(UInt16(bigEndian: port)))
    }

    private func acceptLoop() {
        defer {
            lock.withLock {
                listenerClosed = true
                close(listener)
            }
        }
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if fd < 0 {
                // A connection that went before it was taken, or a signal, is no reason to stop.
                let transient = errno == EINTR || errno == ECONNABORTED
                if transient, !lock.withLock({ stopping }) { continue }
                return
            }
            let address = Self.describe(peer)
            Thread.detachNewThread { [self] in serve(fd, peer: address) }
        }
    }

    private func serve(_ fd: Int32, peer: String) {
        defer { close(fd) }
        guard let request = Self.readRequest(fd, peer: peer) else { return }
        lock.withLock { recorded.append(request) }
        arrival.yield(request)
        switch handler(request) {
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) X\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            Self.write(fd, head + "\r\n" + body)
        case .raw(let chunks):
            for chunk in chunks { Self.write(fd, chunk) }
        case .drop:
            return
        case .hang:
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) > 0 {}
        }
    }

    private static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private static func readRequest(_ fd: Int32, peer: String) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let request = parse(buffer, peer: peer) { return request }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    private static func parse(_ buffer: [UInt8], peer: String) -> Request? {
        let text = String(decoding: buffer, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let first = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = text.utf8.distance(from: text.startIndex, to: headEnd.upperBound)
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard buffer.count - bodyStart >= length, first.count >= 2 else { return nil }
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        return Request(method: String(first[0]), target: String(first[1]), headers: headers, body: body, peer: peer)
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        withUnsafeMutableBytes(of: &storage) { raw in
            if Int32(raw.load(as: sa_family_t.self)) == AF_INET6 {
                let sin6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                inet_ntop(AF_INET6, &sin6.pointee.sin6_addr, &text, socklen_t(text.count))
            } else {
                let sin = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                inet_ntop(AF_INET, &sin.pointee.sin_addr, &text, socklen_t(text.count))
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
