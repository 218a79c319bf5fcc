import Foundation
import Testing
import TacitCore
import TacitServer

/// The router on its own: which providers a message goes to, in which order, and when it stops.
@Suite("Provider router: routes, country overrides, failover and start-up checks")
struct ProviderRouterTests {
    static func message(_ channel: Channel = .sms, to number: String = "+447911123456") -> OutboundMessage {
        OutboundMessage(channel: channel, to: number, body: "Your code is 123456.", verificationId: "vf_1")
    }

    static func router(_ senders: [ScriptedSender], routes: [String: String] = [:],
                       channels: Set<Channel> = [.sms, .voice, .whatsapp]) throws -> ProviderRouter {
        try ProviderRouter(providers: senders.map { RoutedProvider(name: $0.name, channels: channels, sender: $0) },
                           routes: ProviderRoutes(settings: routes))
    }

    @Test("without a route every provider carrying the channel is tried in the given order")
    func defaultOrder() async throws {
        let (first, second) = (ScriptedSender("twilio", refusal: .transient), ScriptedSender("vonage"))
        let result = try await Self.router([first, second]).send(Self.message())
        #expect(result.isAccepted)
        #expect(result.attempts.map(\.provider) == ["twilio", "vonage"])
        #expect(result.acceptedBy?.messageId == "vonage-1")
    }

    @Test("a channel's route sets the order, and a country's route overrides it for that country only")
    func routesAndCountries() async throws {
        let (twilio, vonage) = (ScriptedSender("twilio"), ScriptedSender("vonage"))
        let router = try Self.router([twilio, vonage], routes: ["TACIT_ROUTE_SMS": "vonage,twilio", "TACIT_ROUTE_SMS_US": "twilio"])
        #expect(router.chain(for: Self.message()).map(\.name) == ["vonage", "twilio"])
        #expect(router.chain(for: Self.message(to: "+12025550123")).map(\.name) == ["twilio"])
        #expect(router.chain(for: Self.message(.voice)).map(\.name) == ["twilio", "vonage"])
        _ = await router.send(Self.message(to: "+12025550123"))
        #expect((twilio.count, vonage.count) == (1, 0))
    }

    @Test("a permanent refusal ends the step with the provider's reason and asks no other provider")
    func permanentStops() async throws {
        let (first, second) = (ScriptedSender("twilio", refusal: .permanent, reason: "invalid_number"), ScriptedSender("vonage"))
        let result = try await Self.router([first, second]).send(Self.message())
        #expect(result.refusal == .permanent)
        #expect(result.reason == "invalid_number")
        #expect(second.count == 0)
    }

    @Test("when every provider refuses for now, the step fails with the last reason; with none, no_provider")
    func allTransient() async throws {
        let senders = [ScriptedSender("twilio", refusal: .transient), ScriptedSender("vonage", refusal: .transient, reason: "provider_unreachable")]
        let result = try await Self.router(senders).send(Self.message())
        #expect(result.refusal == .transient)
        #expect(result.reason == "provider_unreachable")
        #expect(result.attempts.count == 2)
        let none = try await Self.router([], routes: [:]).send(Self.message())
        #expect(none == .refused(reason: "no_provider"))
        let voiceless = try await Self.router([ScriptedSender("twilio")], channels: [.sms]).send(Self.message(.voice))
        #expect(voiceless.reason == "no_provider")
    }

    @Test("a route naming an unconfigured provider, or one that doesn't carry the channel, or a malformed route, is a start-up error naming the setting", arguments: [
        (["TACIT_ROUTE_SMS": "twilio,vonage"], "TACIT_ROUTE_SMS"),
        (["TACIT_ROUTE_VOICE_GB": "twilio"], "TACIT_ROUTE_VOICE_GB"),
        (["TACIT_ROUTE_FAX": "twilio"], "TACIT_ROUTE_FAX"),
        (["TACIT_ROUTE_SMS_GBR": "twilio"], "TACIT_ROUTE_SMS_GBR"),
        (["TACIT_ROUTE_WHATSAPP": " , "], "TACIT_ROUTE_WHATSAPP"),
    ])
    func startupErrors(routes: [String: String], setting: String) {
        #expect {
            _ = try Self.router([ScriptedSender("twilio")], routes: routes, channels: [.sms, .whatsapp])
        } throws: { error in
            (error as? ProviderSetupError)?.setting == setting
        }
    }

    @Test("SILENT_AUTH is one channel's name, not the silent channel and a country")
    func silentAuthName() throws {
        let routes = try ProviderRoutes(settings: ["TACIT_ROUTE_SILENT_AUTH": "camara", "TACIT_ROUTE_SMS_gb": "twilio"])
        #expect(routes.byChannel[.silentAuth]?.providers == ["camara"])
        #expect(routes.route(for: .sms, region: "GB")?.providers == ["twilio"])
    }
}
