import Foundation
import Synchronization
import Testing
@testable import TacitServer
import TacitTesting

/// Several instances starting, adopting an old secret or rotating on one key file at once:
/// exactly one creation wins and every one then holds its key, and no change to the file
/// loses another's key.
@Suite("The key file under concurrent starts", .timeLimit(.minutes(1)))
struct KeyFileRaceTests {
    @Test("many first starts at once on one key file all load the same single key")
    func firstStartsAgree() async throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.databasePath = directory.appendingPathComponent("tacit.db").path
        let path = try #require(configuration.keyFilePath)
        let configured = configuration
        // Threads of their own, so the creators really run at once, off Swift's pool.
        let loaded = try await offThePool { () -> [KeyRing] in
            let rings = Mutex<[KeyRing]>([])
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                let ring = try? KeyRing.firstStart(path, legacy: nil, sealed: false, dev: false)
                if let ring { rings.withLock { $0.append(ring) } }
            }
            return rings.withLock { $0 }
        }
        #expect(loaded.count == 12, "every creator got a ring")
        let stored = try #require(try KeyFile.read(path))
        #expect(stored.count == 1)
        #expect(loaded.allSatisfy { $0.keys == stored }, "each holds the key that won, none its own")
        let again = try await KeyRing.load(configuration: configured, store: InMemoryStore())
        #expect(again.keys == stored, "a later start reads it too")
    }

    @Test("keys added to one key file at once by many writers are all kept, and the file stays 0600")
    func concurrentUpdatesKeepEveryKey() throws {
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tacit.key").path
        let first = MasterKey.generate()
        #expect(try KeyFile.create(path, keys: [first]))
        let added = (0..<16).map { _ in MasterKey.generate() }
        DispatchQueue.concurrentPerform(iterations: added.count) { index in
            _ = try? KeyFile.update(path) { existing in existing + [added[index]] }
        }
        let stored = try #require(try KeyFile.read(path))
        #expect(stored.count == 17)
        #expect(Set(stored.map(\.name)) == Set(([first] + added).map(\.name)))
        #expect(stored.first == first, "the newest key stays first")
        #expect(try StoredFiles.mode(path) == 0o600)
    }
}
