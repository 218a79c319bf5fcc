import Foundation
import Synchronization
import TacitCore
import TacitHTTP
import TacitStore

/// The live event streams an API key holds open, so that revoking the key (or its
/// application, which revokes every key of it) ends them too (docs/security.md, "Second
/// adversarial pass"). A key is looked up in the store on every request, so a revoked
/// key is refused from its next request on whichever instance gets it; a stream is one
/// request that lasts, so while any is open each instance reads its keys again every
/// `interval` on the injected clock and ends the streams of keys it finds revoked or
/// gone. That is how a revocation made by `tacit apps revoke` or `tacit keys revoke`
/// (another process, on SQLite as on PostgreSQL) reaches every instance within a second.
final class OpenStreams: Sendable {
    /// The key the request being answered was authenticated with, set by the gate around a
    /// keyed route: a stream the route opens is registered under it.
    @TaskLocal static var keyId: String?

    /// How often the keys of open streams are read again: half a second, so a stream ends
    /// within a second of its key's revocation.
    static let interval: TimeInterval = 0.5

    private struct Stream {
        var keyId: String
        var writer: StreamWriter
    }

    private struct State {
        var streams: [UInt64: Stream] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())
    private let keys: (any KeyStore)?
    private let clock: any TacitClock
    private let ended = Atomic(0)

    init(keys: (any KeyStore)?, clock: any TacitClock) {
        self.keys = keys
        self.clock = clock
    }

    /// Registers `writer` under the request's key, if it has one, until the stream ends.
    func hold(_ writer: StreamWriter) {
        guard let keyId = Self.keyId else { return }
        let id = state.withLock { state in
            state.next += 1
            state.streams[state.next] = Stream(keyId: keyId, writer: writer)
            return state.next
        }
        let previous = writer.onTermination
        writer.onTermination = { [weak self] in
            previous?()
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
    }

    var count: Int { state.withLock { $0.streams.count } }

    /// Streams ended because their key was revoked, since start.
    var revokedCount: Int { ended.load(ordering: .relaxed) }

    /// Reads the keys of open streams again every `interval` until cancelled.
    func run() async {
        var next = clock.now()
        while !Task.isCancelled {
            next = max(next.addingTimeInterval(Self.interval), clock.now())
            do { try await clock.sleep(until: next) } catch { return }
            await sweep()
        }
    }

    /// Ends every open stream whose key is revoked or no longer stored. A store that can't
    /// be read ends nothing: the next sweep tries again.
    func sweep() async {
        let held = Set(state.withLock { $0.streams.values.map(\.keyId) })
        guard !held.isEmpty, let keys, let stored = try? await keys.keys() else { return }
        let live = Set(stored.filter { !$0.isRevoked }.map(\.id))
        let revoked = held.subtracting(live)
        guard !revoked.isEmpty else { return }
        let writers = state.withLock { state in
            state.streams.values.filter { revoked.contains($0.keyId) }.map(\.writer)
        }
        ended.add(writers.count, ordering: .relaxed)
        for writer in writers { writer.finish() }
    }
}
