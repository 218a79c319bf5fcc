import Foundation

/// Runs `body` on a thread of its own and awaits it. For the tests' blocking work (a
/// subprocess's pipes and exit, a blocking read): on Swift's cooperative pool, which has
/// as many threads as the machine has cores, two such calls stall every test running
/// beside them, since their servers answer on that pool, for as long as a child takes on
/// a loaded machine.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
