import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitServer
import TacitTesting

/// A send row this process commits is written leased to its own worker and handed over in
/// memory, so a start costs no claim; the claim query is left to rows nobody here holds.
@Suite("Send handoffs", .timeLimit(.minutes(1)))
struct SendHandoffTests {
    static let number = "+447911123457"

    static func recovered(_ client: TestClient) async throws -> String? {
        try await client.get("/metrics").text.split(separator: "\n").first { $0.hasPrefix("tacit_sends_recovered_total ") }.map(String.init)
    }

    @Test("a start's send row is written already leased, the worker sends it from memory, and nothing is claimed from the store")
    func startIsHandedOver() async throws {
        let sender = RecordingSender(holding: true)
        try await TestApplication.test(.inProcess, sender: sender) { app, client in
            async let started = client.start(Self.number, channels: ["sms"])
            await sender.waitFor(1)
            let message = try #require(sender.messages.first)
            let row = try #require(try await app.store.queuedSends(verificationId: message.verificationId).first)
            #expect(row.dueAt == row.createdAt.addingTimeInterval(SendWorker.lease), "leased in the insert itself")
            sender.release()
            let (_, reply) = try await started
            #expect(reply.status == 202)
            #expect(try await Self.recovered(client) == "tacit_sends_recovered_total 0")
        }
    }

    @Test("a row a stopped process held is claimed once its lease ends, sent once, and counted as recovered")
    func stoppedProcessRowIsRecovered() async throws {
        let sender = StallingSender()
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.sender = sender }) { app, client in
            var stalls = sender.stalls.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            _ = await stalls.next()
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, _) = try await started
            let key = QueuedSend.key(verificationId: id, step: 0)
            try await app.restart {
                try await app.store.leaseSend(id: key, until: app.clock.now().addingTimeInterval(SendWorker.lease))
            }
            var reports = try #require(app.application.sendReports).makeAsyncIterator()
            #expect(try await Self.recovered(client) == "tacit_sends_recovered_total 0", "not taken while its lease holds")
            app.clock.advance(by: SendWorker.lease + 1)
            #expect(await reports.next()?.result == .sent(accepted: true))
            #expect(sender.delivered.map(\.idempotencyKey) == [key])
            #expect(try await Self.recovered(client) == "tacit_sends_recovered_total 1")
        }
    }

    @Test("handoffs take rows only while open, keep at most their limit and name the earliest lease left in the store")
    func handoffsBound() {
        let handoffs = SendHandoffs()
        let at = Date(timeIntervalSince1970: 1_796_000_000)
        func row(_ n: Int) -> QueuedSend {
            QueuedSend(id: "snd_\(n)", verificationId: "v\(n)", step: 0, channel: "sms", sealedCode: [1], createdAt: at,
                       dueAt: at.addingTimeInterval(TimeInterval(10 + n)))
        }
        let verification = Verification(id: "v0", phoneNumber: Self.number, options: VerificationOptions(workflow: [.sms]),
                                        clientTokenHash: [1], createdAt: at)
        #expect(!handoffs.hand([row(0)], verification: verification), "no worker, no handoff")
        handoffs.open()
        #expect(handoffs.hand((0..<SendHandoffs.limit + 2).map(row), verification: verification))
        let first = handoffs.take(2)
        #expect(first.taken.map(\.row.id) == ["snd_0", "snd_1"])
        #expect(first.leftInStore == row(SendHandoffs.limit).dueAt)
        handoffs.withdraw(["snd_2"])
        #expect(handoffs.take(1).taken.map(\.row.id) == ["snd_3"])
        #expect(handoffs.close().map(\.id).prefix(2) == ["snd_4", "snd_5"], "what was left, to give back")
        #expect(handoffs.take(10).taken.isEmpty)
        #expect(!handoffs.hand([row(0)], verification: verification), "closed again")
    }
}
