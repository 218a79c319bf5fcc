import CCrypto
import Foundation
import Synchronization
import Testing
import TacitTesting
@testable import TacitCrypto

/// Setting keys up under concurrency: the parameters OpenSSL reads stay alive, and a
/// set-up that fails throws to its caller instead of stopping the process.
@Suite("Key set-up")
struct KeySetupTests {
    static let rfc4231Case2 = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    static let key = Array("Jefe".utf8), message = Array("what do ya want for nothing?".utf8)

    @Test("the digest parameter still names its key and digest after freed buffers of their size were reused")
    func parameterOutlivesItsConstruction() async throws {
        // On a thread of its own: the churn blocks its thread, which must not be one of the pool's.
        let (key, value) = try await offThePool {
            try MACParameters.withDigest("SHA256") { list throws(CryptoError) in
                // What a dangling key would meet: buffers of its size freed and reused, here and on other threads.
                for _ in 0..<2_000 { _ = Array("garbage".utf8CString).withUnsafeBufferPointer { $0.count } }
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    for _ in 0..<2_000 { _ = Array("garbage".utf8CString).withUnsafeBufferPointer { $0.count } }
                }
                return (String(cString: list[0].key), String(cString: list[0].data.assumingMemoryBound(to: CChar.self)))
            }
        }
        #expect(key == "digest")
        #expect(value == "SHA256")
    }

    @Test("keys set up on many threads at once all key their MAC with the right digest")
    func concurrentSetUp() async {
        let failures = Failures()
        // Bounded: 8 threads × 50 keys, each set up, used and freed, beside heap churn.
        await Self.onThreads(8) { _ in
            for _ in 0..<50 {
                let prepared = HMAC.SHA256Key(Self.key)
                _ = Array("garbage".utf8CString).withUnsafeBufferPointer { $0.count }
                guard let mac = try? prepared.authenticate(Self.message), Hex.encode(mac) == Self.rfc4231Case2 else {
                    failures.add()
                    continue
                }
            }
        }
        #expect(failures.count == 0)
    }

    /// Runs `body` on `count` threads of their own at once and waits for them all, as
    /// libmicrohttpd's threads run handlers, without holding Swift's cooperative pool:
    /// the suite's live servers need it meanwhile.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread {
                            body(index)
                            done.resume()
                        }
                    }
                }
            }
        }
    }

    @Test("one key used from many tasks at once, past its idle contexts, gives the same MAC each time")
    func concurrentUseOfOneKey() async {
        let prepared = HMAC.SHA256Key(Self.key)
        let macs = await withTaskGroup(of: String.self) { group in
            for _ in 0..<256 { group.addTask { (try? prepared.authenticate(Self.message)).map(Hex.encode) ?? "failed" } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(macs == [Self.rfc4231Case2])
    }

    @Test("a key OpenSSL can't set up throws a key-set-up error from each use, and the process goes on")
    func failedSetUpThrows() {
        let broken = HMAC.SHA256Key(Self.key, digest: "NO-SUCH-DIGEST")
        for _ in 0..<2 {
            #expect(throws: CryptoError.keySetup("HMAC: OpenSSL could not set the key")) { try broken.authenticate(Self.message) }
        }
        #expect(Hex.encode((try? HMAC.SHA256Key(Self.key).authenticate(Self.message)) ?? []) == Self.rfc4231Case2)
    }

    @Test("a crypto error's description names the step, never the key or the data")
    func errorDescription() {
        let error = CryptoError.keySetup("HMAC: OpenSSL could not set the key")
        #expect(error.code == "key_setup" && error.description == "HMAC: OpenSSL could not set the key")
        #expect(CryptoError.operation("AES-GCM tag could not be read").code == "operation")
    }
}

/// A count of failures from many threads.
final class Failures: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
