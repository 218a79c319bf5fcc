import Foundation
import Testing
import TacitCore
import TacitTesting
@testable import TacitServer

/// The start response names the provider's own id for a check that ends at the provider,
/// so the device can tell the provider's answer for its own check from another's.
@Suite("The provider's id in the start response")
struct SilentProviderIdTests {
    @Test("a check issued at the provider gives provider_request_id beside the check URL; state reads repeat neither")
    func providerId() async throws {
        let router = try SilentProviderRouterTests.router([SilentProviderRouterTests.Scripted("vonage", SilentProviderRouterTests.issued("vonage"))])
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.silentAuth = router }) { _, client in
            let start = #"{"phone_number":"+447400123456","workflow":[{"channel":"silent_auth"},{"channel":"sms"}]}"#
            let started = try await client.post("/v1/verifications", raw: start)
            #expect(started.json["check_url"] as? String == "http://127.0.0.1:9/vonage")
            #expect(started.json["provider_request_id"] as? String == "ref-vonage")
            let state = try await client.get("/v1/verifications/\(started.json["request_id"] as! String)")
            #expect(state.json["provider_request_id"] == nil && state.json["check_url"] == nil)
        }
    }

    @Test("a check whose verdict comes back through Tacit (the virtual operator) names no provider id")
    func tacitsOwn() async throws {
        try await TestApplication.test(.inProcess) { _, client in
            let started = try await client.post("/v1/verifications", raw: #"{"phone_number":"+99012345670"}"#)
            #expect(started.json["check_url"] != nil)
            #expect(started.json["provider_request_id"] == nil)
        }
    }
}
