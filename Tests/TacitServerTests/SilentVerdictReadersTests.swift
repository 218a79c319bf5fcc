import Foundation
import Synchronization
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer

/// Each check's verdict goes to the reader of the provider that issued it, as Tacit's
/// sealed check token names it, never as the callback's query might.
@Suite("Verdict readers by provider")
struct SilentVerdictReadersTests {
    final class Reader: SilentVerdictReader, Sendable {
        let name: String
        private let asked = Mutex(0)
        init(_ name: String) { self.name = name }
        var calls: Int { asked.withLock { $0 } }
        func verdict(for callback: SilentCallback) async -> SilentVerdict? {
            asked.withLock { $0 += 1 }
            return SilentVerdict(result: .match, state: name, session: nil, expires: nil)
        }
    }

    @Test("a check CAMARA issued is read by CAMARA's reader; the virtual operator's and an unnamed one by the fallback")
    func dispatch() async {
        let camara = Reader("camara"), operatorReader = Reader("virtual_operator")
        let readers = SilentVerdictReaders(byProvider: ["camara": camara], fallback: operatorReader)
        #expect(await readers.verdict(for: SilentCallback(query: ["provider": "virtual_operator"], provider: "camara"))?.state == "camara")
        #expect(await readers.verdict(for: SilentCallback(query: ["provider": "camara"], provider: "virtual_operator"))?.state
                == "virtual_operator")
        #expect(await readers.verdict(for: SilentCallback(query: [:]))?.state == "virtual_operator")
        #expect(camara.calls == 1 && operatorReader.calls == 2)
    }

    @Test("the sealed check token keeps the provider that issued the check, and a token without one opens as before")
    func sealedProvider() throws {
        let keys = SilentKeys(secrets: ServerSecrets(master: Array(repeating: 7, count: 32)))
        let expiry = Date(timeIntervalSince1970: 1_796_000_060)
        for provider in ["camara", nil] {
            let token = CheckToken(verificationId: "vf_1", step: 0, expiresAt: expiry, operatorURL: "http://127.0.0.1:9/gw/s1",
                                   provider: provider)
            let opened = try #require(try CheckToken(sealed: token.seal(with: keys.checkCipher), cipher: keys.checkCipher))
            #expect(opened == token)
        }
    }

    @Test("the router names the provider that issued the check, not the first one it tried")
    func routerNamesIssuer() async throws {
        let truid = SilentProviderRouterTests.Scripted("truid", .failed(.noCoverage, events: []))
        let camara = SilentProviderRouterTests.Scripted("camara", .issued(checkURL: "http://127.0.0.1:9/authorize", events: []))
        let router = try SilentProviderRouterTests.router([truid, camara])
        let (issuer, answer) = await router.beginNamed(SilentProviderRouterTests.request())
        #expect(issuer == "camara")
        if case .issued = answer {} else { Issue.record("the check was not issued") }
    }
}
