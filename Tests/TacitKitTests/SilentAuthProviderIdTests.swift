import Foundation
import Testing
@testable import TacitKit

/// A check URL that ends at its provider answers with the provider's id (Vonage's
/// `request_id`, tru.ID's `check_id`): the start response names it as
/// `provider_request_id`, and the device's integrity check compares against it.
@Suite("SilentAuth's integrity check against the provider's id")
struct SilentAuthProviderIdTests {
    static let providerId = "c11236f4-00bf-4b89-84ba-88b25df97315"

    func run(final body: String, answerId: String?) async throws -> (SilentAuthResult, FakeOperator) {
        let fake = try FakeOperator { request in
            request.path == "/check/abc" ? .respond(200, headers: ["Content-Type": "application/json"], body: body) : .respond(404)
        }
        let result = await SilentAuth.run(checkURL: fake.server.url("/check/abc"), requestId: FakeOperator.requestId,
                                          clientToken: "tok-secret", baseURL: fake.server.baseURL,
                                          transport: SocketCellularTransport(sourceAddress: "127.0.0.2"),
                                          apiTransport: SocketCellularTransport(), answerId: answerId, options: .fast)
        return (result, fake)
    }

    @Test("Vonage's request_id and tru.ID's check_id pass when they are the provider id the start response named", arguments: [
        #"{"request_id":"c11236f4-00bf-4b89-84ba-88b25df97315","code":"si9sfG"}"#,
        #"{"check_id":"c11236f4-00bf-4b89-84ba-88b25df97315","code":"si9sfG"}"#,
    ])
    func providerIdMatches(body: String) async throws {
        let (result, fake) = try await run(final: body, answerId: Self.providerId)
        defer { fake.server.stop() }
        #expect(result == .submitted)
        #expect(fake.server.requests(to: FakeOperator.checkPath).first?.bodyText == #"{"code":"si9sfG"}"#)
    }

    @Test("an answer naming another provider check, or Tacit's own id where the provider's was expected, is discarded", arguments: [
        #"{"request_id":"aaaaaaaa-0000-4000-8000-000000000000","code":"si9sfG"}"#,
        #"{"request_id":"req-1","code":"si9sfG"}"#,
    ])
    func otherIdRefused(body: String) async throws {
        let (result, fake) = try await run(final: body, answerId: Self.providerId)
        defer { fake.server.stop() }
        #expect(result.clientErrorName == "integrity_error")
        #expect(fake.server.requests(to: FakeOperator.checkPath).isEmpty)
    }

    @Test("the start response's provider_request_id is what run(_:) expects")
    func decodedFromStart() throws {
        let json = #"{"request_id":"req-1","status":"pending","check_url":"http://127.0.0.1:9/c","client_token":"t","provider_request_id":"\#(Self.providerId)"}"#
        let verification = try JSONDecoder().decode(Verification.self, from: Data(json.utf8))
        #expect(verification.providerRequestId == Self.providerId)
    }
}
