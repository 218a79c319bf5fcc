import Foundation
import Synchronization
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer

@Suite("Routing silent checks across providers")
struct SilentProviderRouterTests {
    /// A silent provider that answers every begin the same way and counts them.
    final class Scripted: SilentAuthProvider, Sendable {
        let name: String
        let answer: SilentBeginResult
        private let begun = Mutex(0)

        init(_ name: String, _ answer: SilentBeginResult) {
            self.name = name
            self.answer = answer
        }

        var providerName: String { name }
        var count: Int { begun.withLock { $0 } }

        func begin(_ request: SilentCheckRequest) async -> SilentBeginResult {
            begun.withLock { $0 += 1 }
            return answer
        }
    }

    static func issued(_ name: String) -> SilentBeginResult {
        .issuedAtProvider(SilentChallenge(checkURL: "http://127.0.0.1:9/\(name)", provider: name, reference: "ref-\(name)"), events: [])
    }

    static func request(_ number: String = "+447400123456") -> SilentCheckRequest {
        SilentCheckRequest(verificationId: "vf_1", step: 0, phoneNumber: number, expiresAt: Date(timeIntervalSince1970: 1_796_000_060))
    }

    static func router(_ providers: [Scripted], routes: [String: String] = [:], virtual: (any SilentAuthProvider)? = nil,
                       breaker: ProviderBreakerSettings = ProviderBreakerSettings(), clock: ManualClock = ManualClock()) throws -> SilentProviderRouter {
        try SilentProviderRouter(providers: providers.map { RoutedSilentProvider(name: $0.name, provider: $0) },
                                 routes: try ProviderRoutes(settings: routes), virtual: virtual,
                                 region: { $0.hasPrefix("+44") ? "GB" : $0.hasPrefix("+33") ? "FR" : nil },
                                 breaker: breaker, clock: clock)
    }

    @Test("no coverage at the first provider falls through to the next in the same step, and both hops name their provider")
    func fallsThrough() async throws {
        let first = Scripted("truid", .failed(.noCoverage, events: [])), second = Scripted("twilio", Self.issued("twilio"))
        let answer = await try Self.router([first, second]).begin(Self.request())
        guard case .issuedAtProvider(let challenge, let events) = answer else { Issue.record("not issued: \(answer)"); return }
        #expect(challenge.provider == "twilio")
        #expect(events.map(\.label) == ["silent_auth:coverage_checked", "provider:failed_over",
                                        "silent_auth:coverage_checked", "provider:challenge_issued"])
        #expect(events.map { $0.data["provider"] } == [.text("truid"), .text("truid"), .text("twilio"), .text("twilio")])
        #expect(events[0].data["covered"] == .bool(false) && events[2].data["covered"] == .bool(true))
        #expect(events[1].data["reason"] == .text("no_coverage") && events[1].data["next_provider"] == .text("twilio"))
    }

    @Test("when no provider covers the number the step fails as no coverage, after asking each once")
    func noneCovers() async throws {
        let first = Scripted("truid", .failed(.noCoverage, events: [])), second = Scripted("twilio", .failed(.unavailable, events: []))
        let answer = await try Self.router([first, second]).begin(Self.request())
        guard case .failed(let failure, let events) = answer else { Issue.record("issued"); return }
        #expect(failure == .unavailable)
        #expect(events.map(\.label) == ["silent_auth:coverage_checked", "provider:failed_over", "provider:failed"])
        #expect(first.count == 1 && second.count == 1)
    }

    @Test("a country's route overrides the channel's route, which overrides the table's order")
    func countryRoute() async throws {
        let truid = Scripted("truid", Self.issued("truid")), twilio = Scripted("twilio", Self.issued("twilio"))
        let router = try Self.router([twilio, truid], routes: ["TACIT_ROUTE_SILENT_AUTH": "truid,twilio",
                                                               "TACIT_ROUTE_SILENT_AUTH_GB": "twilio"])
        #expect(router.chain(for: "+447400123456").map(\.name) == ["twilio"])
        #expect(router.chain(for: "+33612345678").map(\.name) == ["truid", "twilio"])
        #expect(try Self.router([twilio, truid]).chain(for: "+33612345678").map(\.name) == ["twilio", "truid"])
    }

    @Test("the virtual range goes to the virtual operator alone, never to a routed provider")
    func virtualRange() async throws {
        let truid = Scripted("truid", Self.issued("truid"))
        let virtual = Scripted("virtual_operator", .issued(checkURL: "http://127.0.0.1:9/gateway", events: []))
        let answer = await try Self.router([truid], virtual: virtual).begin(Self.request("+99012345670"))
        #expect(answer == .issued(checkURL: "http://127.0.0.1:9/gateway", events: []))
        #expect(truid.count == 0)
    }

    @Test("a route naming a provider that is not configured for silent_auth stops start-up, naming the setting")
    func unconfiguredRoute() throws {
        #expect(throws: ProviderSetupError(setting: "TACIT_ROUTE_SILENT_AUTH_GB", problem: "names camara, which is not configured for silent_auth")) {
            try Self.router([Scripted("truid", Self.issued("truid"))], routes: ["TACIT_ROUTE_SILENT_AUTH_GB": "camara"])
        }
    }

    @Test("outages open a provider's circuit: it is then skipped without being asked, until the cool-down lets one trial through")
    func breaker() async throws {
        let clock = ManualClock()
        let down = Scripted("truid", .failed(.unavailable, events: [])), up = Scripted("twilio", Self.issued("twilio"))
        let router = try Self.router([down, up], breaker: ProviderBreakerSettings(failures: 2, cooldown: 30), clock: clock)
        for _ in 0..<2 { _ = await router.begin(Self.request()) }
        #expect(router.circuits["truid"]?.position == .open)
        guard case .issuedAtProvider(_, let events) = await router.begin(Self.request()) else { Issue.record("not issued"); return }
        #expect(events.first?.label == "provider:skipped")
        #expect(down.count == 2)
        clock.advance(by: 31)
        _ = await router.begin(Self.request())
        #expect(down.count == 3)
    }

    @Test("no coverage proves the provider answers: it never opens the circuit")
    func noCoverageKeepsCircuitClosed() async throws {
        let miss = Scripted("truid", .failed(.noCoverage, events: []))
        let router = try Self.router([miss], breaker: ProviderBreakerSettings(failures: 1, cooldown: 30))
        for _ in 0..<3 { _ = await router.begin(Self.request()) }
        #expect(router.circuits["truid"]?.position == .closed)
        #expect(miss.count == 3)
    }
}
