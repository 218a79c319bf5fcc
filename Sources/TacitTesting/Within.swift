/// Runs `body` and returns what it returns, or throws `TimedOut` once `seconds` of real
/// time pass first. A bound on a wait that ends at once when the behaviour under test
/// works, so that a broken behaviour fails its test instead of hanging the run: never a
/// way to give work time to happen. `body` must stop when cancelled (an `AsyncStream`'s
/// loop does), or a timeout waits for it anyway.
public func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard case .some(.some(let value)) = try await group.next() else { throw TimedOut(seconds: seconds) }
        return value
    }
}

/// What `within` throws when its bound passed first.
public struct TimedOut: Error, CustomStringConvertible {
    public let seconds: Double
    public var description: String { "nothing came within \(seconds) s" }
}
