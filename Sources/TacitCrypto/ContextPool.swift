import Synchronization

/// OpenSSL contexts set up once (keyed) and reused, one caller at a time. Setting a key
/// up fetches the algorithm and expands the key; a pooled context only needs a reset
/// before each use, and no allocation. A few idle contexts are kept; calls beyond that
/// many at once make and free their own.
// @unchecked Sendable: a context is touched only by the caller that took it from `idle`.
final class ContextPool: @unchecked Sendable {
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    static let kept = 8
    private let idle = Mutex<[Context]>([])
    private let make: @Sendable () -> OpaquePointer
    private let free: @Sendable (OpaquePointer) -> Void

    /// `make` returns a context ready for use after the caller's reset; `free` releases one.
    init(make: @escaping @Sendable () -> OpaquePointer, free: @escaping @Sendable (OpaquePointer) -> Void) {
        self.make = make
        self.free = free
        let first = Context(pointer: make())
        idle.withLock { $0.append(first) }
    }

    deinit {
        idle.withLock { $0.forEach { free($0.pointer) } }
    }

    /// Runs `body` with a context no one else is using, then puts it back.
    func withContext<T, E: Error>(_ body: (OpaquePointer) throws(E) -> T) throws(E) -> T {
        let context = idle.withLock { $0.popLast() } ?? Context(pointer: make())
        defer {
            let kept = idle.withLock { contexts -> Bool in
                guard contexts.count < Self.kept else { return false }
                contexts.append(context)
                return true
            }
            if !kept { free(context.pointer) }
        }
        return try body(context.pointer)
    }
}
