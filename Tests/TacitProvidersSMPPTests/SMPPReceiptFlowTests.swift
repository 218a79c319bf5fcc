import Foundation
import Testing
import TacitCore
import TacitServer
import TacitStore
import TacitTesting
@testable import TacitProvidersSMPP

/// A receipt source inside a whole application, in process: what its receipts do to the
/// engine and the timeline, through the same path a verified HTTP callback takes.
@Suite("Receipts from a provider's own connection, in the application", .timeLimit(.minutes(1)))
struct SMPPReceiptFlowTests {
    /// A receipt source the test pushes receipts through; `push` returns once the engine has taken one.
    final class PushedReceipts: ProviderReceiptSource {
        let stream: AsyncStream<(ProviderReceipt, CheckedContinuation<Void, Never>)>
        let input: AsyncStream<(ProviderReceipt, CheckedContinuation<Void, Never>)>.Continuation

        init() { (stream, input) = AsyncStream.makeStream() }

        func run(receipts: ProviderReceiptSink) async {
            for await (receipt, done) in stream {
                await receipts.deliver(receipt)
                done.resume()
            }
        }

        func push(_ receipt: ProviderReceipt) async {
            await withCheckedContinuation { input.yield((receipt, $0)) }
        }
    }

    func withSource(_ body: (TestApplication, TestClient, PushedReceipts) async throws -> Void) async throws {
        let source = PushedReceipts()
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.receiptSources = [source]
        }) { app, client in try await body(app, client, source) }
    }

    func start(_ client: TestClient) async throws -> String {
        let reply = try await client.post("/v1/verifications", json: ["phone_number": "+990100000123", "workflow": [["channel": "sms"], ["channel": "voice"]]])
        return try #require(reply.string("request_id"))
    }

    static func receipt(_ id: String, step: Int = 0, _ status: String, _ outcome: ProviderReceipt.Outcome) -> ProviderReceipt {
        ProviderReceipt(provider: "smpp", verificationId: id, step: step, status: status, outcome: outcome, messageId: "msg-0001",
                        errorCode: outcome == .failed ? "21" : nil)
    }

    @Test("an undeliverable receipt fails the SMS step over to the next at once, with the receipt on the timeline")
    func undeliverable() async throws {
        try await withSource { app, client, source in
            let id = try await start(client)
            await source.push(Self.receipt(id, "UNDELIV", .failed))
            let verification = try #require(try await app.store.verification(id: id))
            #expect(verification.workflow.map(\.status) == [.failed, .active])
            let failed = try #require(try await app.store.events(id: id, after: 0, limit: 100).first { $0.label == "provider:failed" })
            #expect(failed.source == .provider)
            #expect(failed.data["provider"] == .string("smpp"))
            #expect(failed.data["status"] == .string("undeliv"))
            #expect(failed.data["message_id"] == .string("msg-0001"))
        }
    }

    @Test("a delivered receipt lands on the timeline and changes no step; one for another step changes nothing")
    func delivered() async throws {
        try await withSource { app, client, source in
            let id = try await start(client)
            let before = try await app.store.events(id: id, after: 0, limit: 100).count
            await source.push(Self.receipt(id, step: 1, "UNDELIV", .failed))
            #expect(try await app.store.events(id: id, after: 0, limit: 100).count == before)
            await source.push(Self.receipt(id, "DELIVRD", .delivered))
            let events = try await app.store.events(id: id, after: 0, limit: 100)
            #expect(events.filter { $0.label == "provider:delivered" }.count == 1)
            #expect(try await app.store.verification(id: id)?.workflow.map(\.status) == [.active, .unused])
        }
    }
}
