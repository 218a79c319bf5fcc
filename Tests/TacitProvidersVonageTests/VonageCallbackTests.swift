import Foundation
import Testing
import TacitCore
import TacitCrypto
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersVonage

/// Messages API status callbacks at `/v1/callbacks/vonage`, in process.
@Suite("Vonage status callbacks")
struct VonageCallbackTests {
    func withApplication(_ body: (TestClient, ManualClock, InMemoryStore) async throws -> Void) async throws {
        let store = InMemoryStore()
        try await TestApplication.test(.inProcess, store: store, sender: .accepting("vonage", messageId: "m1"),
                                       configure: { _, dependencies in
            VonageCallbackFixture.configure(&dependencies)
        }) { app, client in
            try await body(client, app.clock, store)
        }
    }

    func post(_ client: TestClient, _ body: String, token: String?) async throws -> Int {
        let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        return try await client.send("POST", VonageCallbackRoute.path, body: Data(body.utf8), headers: headers).status
    }

    @Test("a signed Vonage failure report fails the active step over; tampered, stale and replayed reports are refused")
    func vonage() async throws {
        try await withApplication { client, clock, store in
            let number = VonageCallbackFixture.sentNumber
            let id = try await VonageCallbackFixture.start(client, number: number)
            let body = #"{"status":"undeliverable","client_ref":"\#(id):0","message_uuid":"m1"}"#
            let token = VonageCallbackFixture.token(body, clock: clock)

            let tampered = body.replacingOccurrences(of: "m1", with: "m2")
            #expect(try await post(client, tampered, token: token) == 401)
            #expect(try await post(client, body, token: VonageCallbackFixture.token(body, clock: clock, age: 600)) == 401)
            #expect(try await post(client, body, token: nil) == 401)
            #expect(try await store.verification(id: id)?.currentStep == 0)

            #expect(try await post(client, body, token: token) == 204)
            let after = try #require(try await store.verification(id: id))
            #expect(after.workflow.map(\.status) == [.failed, .active])
            #expect(after.workflow[0].reason == "provider_undeliverable")
            #expect(try await post(client, body, token: token) == 409)
        }
    }

    @Test("a signed report for an unknown verification or a step no longer active is acknowledged without effect")
    func unknownReference() async throws {
        try await withApplication { client, clock, store in
            let number = VonageCallbackFixture.sentNumber
            let id = try await VonageCallbackFixture.start(client, number: number)
            for ref in ["vf_unknown:0", "\(id):1", "garbage"] {
                let body = #"{"status":"failed","client_ref":"\#(ref)"}"#
                #expect(try await post(client, body, token: VonageCallbackFixture.token(body, clock: clock)) == 204)
            }
            #expect(try await store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }

    @Test("without a signature secret the route answers 404, signed or not")
    func unconfigured() async throws {
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.callbacks = [VonageCallbackRoute(secret: nil)]
        }) { app, client in
            let body = #"{"status":"failed","client_ref":"vf_unknown:0"}"#
            let status = try await post(client, body, token: VonageCallbackFixture.token(body, clock: app.clock))
            #expect(status == 404)
        }
    }

    @Test("the signature method is read from the provider settings; an unknown one stops the start naming the setting")
    func settings() throws {
        let route = try VonageCallbackRoute(ProviderSettings(["TACIT_VONAGE_SIGNATURE_SECRET": "s",
                                                              "TACIT_VONAGE_SIGNATURE_METHOD": "SHA256"]))
        #expect(route.secret == "s" && route.method == .sha256)
        #expect(try VonageCallbackRoute(ProviderSettings()).secret == nil)
        #expect(throws: ProviderSetupError.self) {
            try VonageCallbackRoute(ProviderSettings(["TACIT_VONAGE_SIGNATURE_METHOD": "crc32"]))
        }
    }
}
