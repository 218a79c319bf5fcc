import Synchronization

/// OpenSSL contexts set up once (keyed) and reused, one caller at a time. Setting a key
/// up fetches the algorithm and expands the key; a pooled context only needs a reset
/// before each use, and no allocation. A few idle contexts are kept; calls beyond that
/// many at once make and free their own.
///
/// A set-up that fails throws to the caller that needed the context, so it fails that
/// one request; the next caller tries again. None is made eagerly that could stop the
/// process: `init` makes the first one if it can, and leaves the pool empty if not.
// @unchecked Sendable: a context is touched only by the caller that took it from `idle`.
final class ContextPool: @unchecked Sendable {
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    static let kept = 8
    private let idle = Mutex<[Context]>([])
    private let make: @Sendable () throws(CryptoError) -> OpaquePointer
    private let free: @Sendable (OpaquePointer) -> Void

    /// `make` returns a context ready for use after the caller's reset, or throws when
    /// OpenSSL can't set one up; `free` releases one.
    init(
        make: @escaping @Sendable () throws(CryptoError) -> OpaquePointer,
        free: @escaping @Sendable (OpaquePointer) -> Void
    ) {
        self.make = make
        self.free = free
        if let first = try? make() { idle.withLock { $0.append(Context(pointer: first)) } }
    }

    deinit {
        idle.withLock { $0.forEach { free($0.pointer) } }
    }

    /// Runs `body` with a context no one else is using, then puts it back.
    ///
    /// - Throws: ``CryptoError`` when no context was idle and a new one couldn't be set
    ///   up, or whatever `body` throws.
    func withContext<T>(_ body: (OpaquePointer) throws(CryptoError) -> T) throws(CryptoError) -> T {
        let context: Context
        if let reused = idle.withLock({ $0.popLast() }) {
            context = reused
        } else {
            context = Context(pointer: try make())
        }
        do {
            let result = try body(context.pointer)
            putBack(context)
            return result
        } catch {
            // A context OpenSSL failed in may be left half-reset: don't hand it out again.
            free(context.pointer)
            throw error
        }
    }

    private func putBack(_ context: Context) {
        let kept = idle.withLock { contexts -> Bool in
            guard contexts.count < Self.kept else { return false }
            contexts.append(context)
            return true
        }
        if !kept { free(context.pointer) }
    }
}
