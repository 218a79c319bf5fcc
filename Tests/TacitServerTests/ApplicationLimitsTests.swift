import Foundation
import Testing
@testable import TacitServer
import TacitCore
import TacitStore
import TacitTesting

/// The parts of an application besides its verifications: its rate-limit bucket and its
/// webhook endpoints.
@Suite("Application buckets and endpoints")
struct ApplicationLimitsTests {
    @Test("an application's keys share its request bucket when it is on, and another application's keys don't spend it")
    func perApplicationBucket() async throws {
        try await SecurityCalls.test(dev: false, configure: { $0.security.requestsPerApplication = .init(3, per: 60) }) { server in
            let manager = try await ApplicationManager.open(store: server.store)
            let shop = try await manager.create(name: "Shop")
            let second = try await KeyManager.open(store: server.store).create(name: "second", application: shop.application.id).secret
            let other = try await manager.create(name: "Other")
            for key in [shop.credentials.apiKey, second, shop.credentials.apiKey] {
                #expect(try await server.request("GET", "/v1/verifications/vf_none", token: key).status == 404)
            }
            let limited = try await server.request("GET", "/v1/verifications/vf_none", token: second)
            #expect(limited.status == 429)
            #expect(limited.type == "rate-limited")
            #expect(try await server.request("GET", "/v1/verifications/vf_none", token: other.credentials.apiKey).status == 404)
        }
    }

    static func endpoint(_ url: String, _ application: String?) -> WebhookEndpoint {
        WebhookEndpoint(url: url, secrets: ["whsec_" + Data(repeating: 1, count: 24).base64EncodedString()], applicationId: application)
    }

    static func verification(of application: String) -> Verification {
        var verification = Verification(id: "vf_1", phoneNumber: "+99012345670", options: VerificationOptions(),
                                        clientTokenHash: [], createdAt: Date(timeIntervalSince1970: 0))
        verification.applicationId = application
        return verification
    }

    @Test("an application with endpoints of its own sends only to them; the others, default included, use the server-wide ones")
    func endpointsPerApplication() {
        let planner = WebhookPlanner(endpoints: [Self.endpoint("http://127.0.0.1:9/all", nil), Self.endpoint("http://127.0.0.1:9/shop", "app_shop")])
        let effects: [WorkflowEffect] = [.notifyWebhook(.completed, channel: .sms)]
        let at = Date(timeIntervalSince1970: 0)
        let shop = planner.outbox(for: effects, verification: Self.verification(of: "app_shop"), at: at).map(\.endpoint)
        let plain = planner.outbox(for: effects, verification: Self.verification(of: Application.defaultID), at: at).map(\.endpoint)
        let other = planner.outbox(for: effects, verification: Self.verification(of: "app_other"), at: at).map(\.endpoint)
        #expect(shop == [Self.endpoint("http://127.0.0.1:9/shop", "app_shop").id])
        #expect(plain == [Self.endpoint("http://127.0.0.1:9/all", nil).id])
        #expect(other == plain)
    }

    @Test("a webhook's data names the face that started the verification")
    func webhookNamesTheFace() throws {
        var verification = Self.verification(of: "app_shop")
        verification.face = "vonage"
        let body = WebhookPayload(event: .completed, verification: verification, channel: .sms, at: Date()).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect((json["data"] as? [String: Any])?["face"] as? String == "vonage")
    }
}
