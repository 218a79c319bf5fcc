import Foundation
import Synchronization
import TacitKit

/// A thread-safe count, for closures that run on other tasks.
final class Counter: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Forwards to another transport, counting requests and letting a test act before each.
struct HookTransport: CellularTransport {
    let inner: any CellularTransport
    let hook: @Sendable (CellularRequest, Int) throws -> Void
    let sent = Counter()
    var isAvailable: Bool { inner.isAvailable }

    func send(_ request: CellularRequest) async throws -> CellularResponse {
        sent.add()
        try hook(request, sent.count)
        return try await inner.send(request)
    }
}
