import Foundation
import Glibc
import Synchronization

/// A TCP listener on 127.0.0.1 whose accept loop hands each connection to `serve` on the
/// loop's own thread. Only the loop closes the listener, and only once `stop()` asked it
/// to: a descriptor closed while the loop (or `stop()`) may still use its number could
/// by then belong to another test's socket.
public final class LoopbackListener: Sendable {
    public let port: Int
    private let listener: Int32
    /// `stopping` is set by `stop()`; `closed` once the loop closed the listener.
    private let state = Mutex<(stopping: Bool, closed: Bool)>((false, false))

    public init(serve: @escaping @Sendable (Int32) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound, listen(listener, 8) == 0 else {
            if listener >= 0 { close(listener) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop(serve) }
    }

    private func acceptLoop(_ serve: (Int32) -> Void) {
        while true {
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                serve(fd)
                continue
            }
            let transient = errno == EINTR || errno == ECONNABORTED
            let done = state.withLock { state -> Bool in
                guard state.stopping || !transient else { return false }
                close(listener)
                state.closed = true
                return true
            }
            if done { return }
        }
    }

    /// Wakes the accept loop, which then closes the listener and ends.
    public func stop() {
        state.withLock { state in
            state.stopping = true
            if !state.closed { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }
}
