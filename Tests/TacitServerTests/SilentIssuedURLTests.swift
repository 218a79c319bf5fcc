import Foundation
import Synchronization
import Testing
import TacitCore
import TacitServer
import TacitTesting

/// A verdict reader finds what its `begin` bound into the check (a CAMARA flow's PKCE
/// nonce) through `SilentCallback.issuedURL`, read from the sealed check token named by
/// `state`, never from the query.
@Suite("The issued provider URL reaches the verdict reader from the sealed check")
struct SilentIssuedURLTests {
    /// Issues a URL with a nonce of its own for each check, and remembers them.
    final class NoncedProvider: SilentAuthProvider {
        let issued = Mutex<[String]>([])
        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            let url = "http://127.0.0.1:9/authorize?nonce=" + UUID().uuidString
            issued.withLock { $0.append(url) }
            return .issued(checkURL: url, events: [])
        }
    }

    /// Matches only when the issued URL it is handed is one its provider issued.
    final class IssuedURLReader: SilentVerdictReader {
        let provider: NoncedProvider
        let seen = Mutex<[String?]>([])
        init(provider: NoncedProvider) { self.provider = provider }
        func verdict(for callback: SilentCallback) async -> SilentVerdict? {
            guard let state = callback.query["state"] else { return nil }
            let url = await callback.issuedURL(state)
            seen.withLock { $0.append(url) }
            guard let url, provider.issued.withLock({ $0.contains(url) }) else { return nil }
            return SilentVerdict(result: .match, state: state, session: nil, expires: nil)
        }
    }

    @Test("the reader is handed the very URL begin issued for the check the state seals, and the check completes")
    func issuedURL() async throws {
        let provider = NoncedProvider()
        let reader = IssuedURLReader(provider: provider)
        try await SilentCalls.test(configure: { _, dependencies in
            dependencies.silentAuth = provider
            dependencies.silentVerdicts = reader
        }) { harness in
            let started = try await harness.start("+99012345670").body
            let callback = try await ProviderSeamTests.callbackURL(harness, started: started, code: "c")
            let answer = try await harness.fetch(callback.url, over: SilentCalls.cellular, cookie: callback.cookie)
            #expect(answer.status == 200)
            #expect(reader.seen.withLock { $0 } == provider.issued.withLock { $0 })
        }
    }
}
