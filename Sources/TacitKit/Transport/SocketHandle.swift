#if os(Linux)
import Foundation
import Glibc

/// Owns one non-blocking TCP socket and closes it in `deinit`. Every wait
/// goes through `poll` with a deadline, so nothing blocks forever.
final class SocketHandle: ByteChannel, @unchecked Sendable {
    // Safe to share: `fd` never changes, and the one mutable flag sits behind `lock`.
    private let fd: Int32
    private let lock = NSLock()
    private var cancelled = false

    init(family: Int32) throws {
        fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CellularTransportError(.connectionFailed, "socket() failed (errno \(errno))") }
    }

    deinit { close(fd) }

    /// Wakes any `poll` in progress and makes the exchange fail with `.cancelled`.
    func cancel() {
        lock.withLock { cancelled = true }
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    /// Binds to a source address (port 0), so the connection leaves from it.
    func bind(to address: SocketAddress) throws {
        let rc = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else {
            throw CellularTransportError(.unavailable, "cannot bind the source address (errno \(errno))")
        }
    }

    /// Pins the socket to a named interface such as `wwan0` (`SO_BINDTODEVICE`).
    func bind(toInterface name: String) throws {
        let rc = name.withCString { setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0, socklen_t(strlen($0) + 1)) }
        guard rc == 0 else {
            throw CellularTransportError(.unavailable, "cannot bind to the interface (errno \(errno))")
        }
    }

    func connect(to address: SocketAddress, deadline: ContinuousClock.Instant) throws {
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if rc == 0 { return }
        guard errno == EINPROGRESS else {
            throw CellularTransportError(.connectionFailed, "connect failed (errno \(errno))")
        }
        try wait(for: Int16(POLLOUT), until: deadline)
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else { throw CellularTransportError(.connectionFailed, "connect failed (errno \(error))") }
    }

    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), until: deadline)
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard n > 0 else { throw CellularTransportError(.connectionFailed, "send failed (errno \(errno))") }
            sent += n
        }
    }

    /// Reads what is available; an empty array means the peer closed.
    func read(deadline: ContinuousClock.Instant) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            try wait(for: Int16(POLLIN), until: deadline)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if isCancelled { throw CellularTransportError(.cancelled, "cancelled") }
            guard n >= 0 else { throw CellularTransportError(.connectionFailed, "connection reset (errno \(errno))") }
            return Array(buffer[..<n])
        }
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws {
        while true {
            if isCancelled { throw CellularTransportError(.cancelled, "cancelled") }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw CellularTransportError(.timeout, "timed out") }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            // Short slices bound how late a cancel that raced the shutdown is noticed.
            let ms = Int32(clamping: min(100, remaining.components.seconds * 1000
                                              + remaining.components.attoseconds / 1_000_000_000_000_000 + 1))
            let rc = poll(&pfd, 1, ms)
            if isCancelled { throw CellularTransportError(.cancelled, "cancelled") }
            if rc > 0 { return }
            if rc < 0 && errno != EINTR {
                throw CellularTransportError(.connectionFailed, "poll failed (errno \(errno))")
            }
        }
    }
}
#endif
