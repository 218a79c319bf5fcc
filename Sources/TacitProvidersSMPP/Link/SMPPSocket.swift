import Foundation
import Glibc

/// A TCP connection to the SMSC over POSIX sockets. Reads block, so only the link's own
/// reader thread reads; writes are short PDUs into the kernel's buffer, bounded by a send
/// timeout so a peer that stops reading can't hold a caller for long.
///
/// `@unchecked Sendable`: the descriptor is read by one thread, written under `writeLock`,
/// and closed once, in `deinit`, after the reader thread has let go of it.
final class SMPPSocket: @unchecked Sendable {
    private let descriptor: Int32
    private let writeLock = NSLock()

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Resolves `host` and connects, blocking for at most `timeout` seconds per address.
    static func connect(host: String, port: Int, timeout: TimeInterval) throws(SMPPLinkError) -> SMPPSocket {
        // Zeroed hints ask for every address family, IPv4 and IPv6 alike.
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw .connectFailed("the host did not resolve")
        }
        defer { freeaddrinfo(first) }
        var failure = "no address answered"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            let socket = SMPPSocket(descriptor: descriptor)
            // On Linux the send timeout also bounds a blocking connect.
            socket.setTimeout(SO_SNDTIMEO, seconds: timeout)
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            failure = String(cString: strerror(errno))
        }
        throw .connectFailed(failure)
    }

    private func setTimeout(_ option: Int32, seconds: TimeInterval) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes`, or throws when the link is gone or the peer stopped reading.
    func write(_ bytes: [UInt8]) throws(SMPPLinkError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .closed }
            offset += written
        }
    }

    /// The next whole PDU; throws when the peer closes, or sends bytes that are not one.
    func readPDU() throws -> SMPPPDU {
        let header = try readExactly(SMPPPDU.headerLength)
        let length = try SMPPPDU.announcedLength(header)
        return try SMPPPDU.decode(header + (try readExactly(length - SMPPPDU.headerLength)))
    }

    private func readExactly(_ count: Int) throws(SMPPLinkError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let read = buffer[offset...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw .closed }
            offset += read
        }
        return buffer
    }

    /// Wakes the reader thread (its `recv` returns 0) and refuses further writes; the
    /// descriptor itself is closed when the last holder lets go.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

/// Why a request on the link got no answer. None holds a setting's value or the peer's text.
enum SMPPLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    case connectFailed(String)
    case bindRefused(UInt32)
    case closed
    case timedOut

    var description: String {
        switch self {
        case .connectFailed(let why): "could not connect (\(why))"
        case .bindRefused(let status): "the SMSC refused the bind with status \(SMPPStatus.hex(status))"
        case .closed: "the link closed"
        case .timedOut: "no answer in time"
        }
    }
}
