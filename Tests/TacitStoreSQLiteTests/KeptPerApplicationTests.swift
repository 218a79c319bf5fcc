import Foundation
import Synchronization
import Testing
import TacitStore

@Suite("Application settings kept for a second")
struct KeptPerApplicationTests {
    /// Counts the reads of the row the copy stands in for.
    final class Row: Sendable {
        let reads = Mutex(0)
        let settings = Mutex(ApplicationSettings(brand: "Shop"))
        func read() -> ApplicationSettings? {
            reads.withLock { $0 += 1 }
            return settings.withLock { $0 }
        }
    }

    @Test("a copy answers within its second and the row is read again after it; forget makes the next ask read the row")
    func lifetime() async throws {
        let kept = KeptPerApplication<ApplicationSettings?>(), row = Row()
        let start = ContinuousClock.now, lifetime = KeptPerApplication<ApplicationSettings?>.lifetime
        #expect(try await kept.value(of: "app_a", now: start) { row.read() }?.brand == "Shop")
        row.settings.withLock { $0.brand = "Other" }
        #expect(try await kept.value(of: "app_a", now: start + .milliseconds(999)) { row.read() }?.brand == "Shop")
        #expect(row.reads.withLock { $0 } == 1)
        #expect(try await kept.value(of: "app_a", now: start + lifetime) { row.read() }?.brand == "Other")
        row.settings.withLock { $0.brand = "Third" }
        kept.forget("app_a")
        #expect(try await kept.value(of: "app_a", now: start + lifetime) { row.read() }?.brand == "Third")
        #expect(row.reads.withLock { $0 } == 3)
    }
}
