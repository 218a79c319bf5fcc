import Foundation
import Testing
import TacitCore
import TacitHTTP
import TacitServer
import TacitTesting
@testable import TacitProvidersDev

@Suite("What DevProviders.wire puts into the application's dependencies")
struct DevProvidersWiringTests {
    static func configuration(dev: Bool, operatorSecret: String? = nil) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dev = dev
        configuration.operatorSecret = operatorSecret
        return configuration
    }

    static func wired(_ configuration: ServerConfiguration, _ prepare: (inout TacitApplication.Dependencies) -> Void = { _ in })
        -> TacitApplication.Dependencies {
        var dependencies = TacitApplication.Dependencies()
        dependencies.clock = ManualClock()
        prepare(&dependencies)
        DevProviders.wire(into: &dependencies, configuration: configuration)
        return dependencies
    }

    static func routes(_ dependencies: TacitApplication.Dependencies) -> [ProviderRoute] {
        let context = ProviderContext(verification: { _ in nil }, clock: dependencies.clock, baseURL: { "http://127.0.0.1:1" })
        return dependencies.mounts.flatMap { $0.routes(in: context) }
    }

    @Test("a non-dev server without an operator secret gets no dev provider: no inbox, no operator, no routes")
    func nonDevWiresNothing() {
        let dependencies = Self.wired(Self.configuration(dev: false))
        #expect(dependencies.mounts.isEmpty)
        #expect(dependencies.sender is NoProviderSender)
        #expect(dependencies.silentAuth == nil)
        #expect(dependencies.simSwap == nil)
        #expect(dependencies.silentVerdicts == nil)
    }

    @Test("a non-dev server with an operator secret only judges that operator's answers: no inbox, no routes")
    func operatorSecretWiresTheReaderOnly() {
        let dependencies = Self.wired(Self.configuration(dev: false, operatorSecret: "s3cret"))
        #expect(dependencies.silentVerdicts is OperatorAnswerReader)
        #expect((dependencies.silentVerdicts as? OperatorAnswerReader)?.key == DevProviders.operatorKey(Self.configuration(dev: false, operatorSecret: "s3cret")))
        #expect(dependencies.mounts.isEmpty)
        #expect(dependencies.sender is NoProviderSender)
        #expect(dependencies.silentAuth == nil)
    }

    @Test("a dev server mounts the operator's open routes and the handsets' dev tools, and nothing else")
    func devRoutes() {
        let routes = Self.routes(Self.wired(Self.configuration(dev: true)))
        let declared = Set(routes.map { "\($0.method) \($0.pattern) \($0.exposure)" })
        #expect(declared == [
            "GET /operator/gateway/:session open", "GET /operator/authorize open",
            "GET /operator/.well-known/openid-configuration open", "POST /operator/token open",
            "POST /camara/number-verification/v0/verify open", "POST /camara/number-verification/v2/verify open", "GET /camara/number-verification/v0/device-phone-number open",
            "POST /camara/sim-swap/v0/check open", "POST /camara/sim-swap/v0/retrieve-date open",
            "GET /v1/dev/handsets/:number/inbox devTool", "POST /v1/dev/handsets/:number/silent-check devTool",
            "GET /v1/dev/mailboxes/:address/inbox devTool",
        ])
        #expect(routes.count == declared.count)
        #expect(routes.allSatisfy { ($0.exposure == .devTool) == $0.pattern.hasPrefix("/v1/dev/") })
    }

    @Test("in dev the inbox takes the virtual range and every email, and the sender set before wiring keeps every other number")
    func inboxInFrontOfTheSender() async throws {
        let recording = RecordingSender()
        let dependencies = Self.wired(Self.configuration(dev: true)) { $0.sender = recording }
        let virtual = OutboundMessage(channel: .sms, to: "+99012345670", body: "Your code is 123456.", verificationId: "vf_1")
        let real = OutboundMessage(channel: .sms, to: "+447911123456", body: "Your code is 654321.", verificationId: "vf_2")
        #expect(await dependencies.sender.send(virtual) == .accepted)
        #expect(await dependencies.sender.send(real) == .accepted)
        let email = OutboundMessage(channel: .email, to: "person@example.com", body: "Your code is 111222.",
                                    verificationId: "vf_3")
        #expect(await dependencies.sender.send(email) == .accepted)
        #expect(recording.messages == [real])
        let inbox = try #require(Self.routes(dependencies).first { $0.pattern.hasSuffix("/inbox") })
        let request = HTTPRequest(method: "GET", path: "/v1/dev/handsets/+99012345670/inbox", pathParameters: ["number": "+99012345670"])
        let answer = try await inbox.handler(request)
        guard case .bytes(let body) = answer.body else { Issue.record("the inbox answered no body"); return }
        #expect(String(decoding: body, as: UTF8.self).contains("Your code is 123456."))
        #expect(answer.header("cache-control") == "no-store")
    }

    @Test("providers set before wiring are kept: a test's silent-auth provider and verdict reader win over the operator's")
    func presetProvidersKept() {
        let dependencies = Self.wired(Self.configuration(dev: true)) {
            $0.silentAuth = UnavailableSilentAuth()
            $0.simSwap = NoSimSwapChecker()
            $0.silentVerdicts = NoSilentVerdicts()
        }
        #expect(dependencies.silentAuth is UnavailableSilentAuth)
        #expect(dependencies.simSwap is NoSimSwapChecker)
        #expect(dependencies.silentVerdicts is NoSilentVerdicts)
        #expect(dependencies.mounts.count == 2)
    }

    @Test("the in-process operator learns the server's URL when it listens, and issues its gateway checks there")
    func operatorLearnsItsURL() async throws {
        let dependencies = Self.wired(Self.configuration(dev: true))
        for mount in dependencies.mounts { mount.listening(at: "http://127.0.0.1:4321") }
        let provider = try #require(dependencies.silentAuth)
        let request = SilentCheckRequest(verificationId: "vf_1", step: 0, phoneNumber: "+99012345670",
                                         expiresAt: dependencies.clock.now().addingTimeInterval(60))
        guard case .issued(let url, _) = await provider.begin(request) else { Issue.record("the operator issued no check"); return }
        #expect(url.hasPrefix("http://127.0.0.1:4321/operator/gateway/"))
    }
}
