import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitServer
import TacitTesting

/// A code send is a row committed with the step that issued the code and carried out by
/// the send worker: a crash between the commit and the provider call neither loses the
/// code nor sends it twice, and a slow provider doesn't hold the start.
@Suite("Durable sends", .timeLimit(.minutes(1)))
struct DurableSendTests {
    static let number = "+447911123456"

    /// The code in a message's text.
    static func code(in message: OutboundMessage) -> String? {
        message.body.split(whereSeparator: { !$0.isNumber }).first(where: { $0.count >= 4 }).map(String.init)
    }

    /// The ended sends, in order, from the running application.
    static func reports(_ app: TestApplication) throws -> AsyncStream<SendReport>.Iterator {
        try #require(app.application.sendReports).makeAsyncIterator()
    }

    /// The next ended send on `reports`, bounded: a send that never ends fails the test
    /// instead of holding it until the time limit.
    static func next(_ reports: AsyncStream<SendReport>) async throws -> SendReport? {
        try await within(30) { await reports.first { _ in true } }
    }

    @Test("a start commits its send row, the code reaches the sender exactly once with the idempotency key, and the row goes with the answer")
    func startSendsOnce() async throws {
        let sender = RecordingSender(holding: true)
        try await TestApplication.test(.inProcess, sender: sender) { app, client in
            var reports = try Self.reports(app)
            async let started = client.start(Self.number, channels: ["sms"])
            await sender.waitFor(1)
            let message = try #require(sender.messages.first)
            let rows = try await app.store.queuedSends(verificationId: message.verificationId)
            #expect(rows.map(\.id) == [QueuedSend.key(verificationId: message.verificationId, step: 0)])
            #expect(rows.first?.channel == "sms")
            #expect(message.idempotencyKey == rows.first?.id)
            sender.release()
            let (id, reply) = try await started
            #expect(reply.status == 202 && id == message.verificationId)
            #expect(await reports.next()?.result == .sent(accepted: true))
            #expect(try await app.store.queuedSends(verificationId: id).isEmpty)
            #expect(sender.count == 1)
            let code = try #require(Self.code(in: message))
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": code]).string("status") == "completed")
            #expect(sender.count == 1, "nothing is sent again")
        }
    }

    @Test("crash between commit and send: the next process on the file sends the code once, after the dead worker's lease, and it checks to completed")
    func crashBetweenCommitAndSend() async throws {
        let sender = StallingSender()
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.sender = sender }) { app, client in
            var stalls = sender.stalls.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            let stalled = try #require(await stalls.next())
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, reply) = try await started
            #expect(reply.status == 202 && reply.string("status") == "pending", "the start answers at the bound")
            let key = QueuedSend.key(verificationId: id, step: 0)
            try await app.restart {
                // What a killed worker leaves: the row, still leased for the rest of its lease.
                try await app.store.leaseSend(id: key, until: app.clock.now().addingTimeInterval(SendWorker.lease))
            }
            var reports = try Self.reports(app)
            #expect(sender.delivered.isEmpty)
            // Past the lease, not onto it: the store keeps times as seconds since 1970, and a
            // lease ending at a time the clock reaches exactly may read back a hair later.
            app.clock.advance(by: SendWorker.lease + 1)
            #expect(await reports.next() == SendReport(sendId: key, verificationId: id, step: 0, result: .sent(accepted: true)))
            #expect(sender.delivered.map(\.idempotencyKey) == [key])
            let code = try #require(sender.delivered.first.flatMap(Self.code(in:)))
            #expect(code == Self.code(in: stalled), "the same code, opened from its sealed row")
            #expect(try await client.post("/v1/verifications/\(id)/check", json: ["code": code]).string("status") == "completed")
            #expect(sender.delivered.count == 1)
        }
    }

    @Test("a slow sender doesn't hold the start past the bound, and its answer still lands on the timeline and in the state")
    func slowSenderDoesNotHoldTheStart() async throws {
        let provider = GatedSender("twilio")
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.sender = provider }) { app, client in
            var reports = try Self.reports(app)
            var arrivals = provider.arrivals.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            _ = await arrivals.next()
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, reply) = try await started
            #expect(reply.status == 202 && reply.string("status") == "pending")
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains("tacit_sends_in_flight 1\n") && metrics.contains("tacit_sends_queued 0\n"))
            provider.reply(.permanent)
            #expect(await reports.next()?.result == .sent(accepted: false))
            let state = try await client.get("/v1/verifications/\(id)")
            #expect(state.string("status") == "failed")
            let labels = try await app.store.events(id: id, after: 0, limit: 100).map(\.label)
            #expect(labels.contains("provider:refused"))
            let after = try await client.get("/metrics").text
            #expect(after.contains("tacit_sends_in_flight 0\n") && after.contains("tacit_sends_oldest_age_seconds 0.000\n"))
        }
    }

    @Test("a queued send for a verification that ended before a worker took it is dropped unsent")
    func finishedVerificationDropsItsSend() async throws {
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
            var reports = try Self.reports(app)
            #expect(try await client.delete("/v1/verifications/\(id)").status == 204)
            app.clock.advance(by: SendWorker.lease + 1)
            #expect(await reports.next() == SendReport(sendId: key, verificationId: id, step: 0, result: .dropped))
            #expect(sender.delivered.isEmpty)
            #expect(try await app.store.queuedSends(verificationId: id).isEmpty)
        }
    }

    /// How a verification leaves the step its queued send was for.
    enum Move: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case next, timeout
        var testDescription: String { rawValue }
    }

    @Test("a queued send for a step the verification has since left, by /next or by the step's timeout, is dropped unsent while the next step's code goes out",
          arguments: Move.allCases)
    func leftStepDropsItsSend(_ move: Move) async throws {
        let sender = StallingSender()
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.sender = sender
        }) { app, client in
            var stalls = sender.stalls.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms", "voice"], extra: ["channel_timeout": 30])
            _ = await stalls.next()
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, _) = try await started
            let sms = QueuedSend.key(verificationId: id, step: 0)
            let voice = QueuedSend.key(verificationId: id, step: 1)
            // What a killed worker leaves: the SMS row, its lease renewed past the step's timeout,
            // so the verification moves on while the row still waits for a worker.
            let leaseEnd = app.clock.now().addingTimeInterval(40)
            try await app.restart { try await app.store.leaseSend(id: sms, until: leaseEnd) }
            let reports = try #require(app.application.sendReports)
            switch move {
            case .next:
                #expect(try await client.post("/v1/verifications/\(id)/next", json: [:]).status == 200)
            case .timeout:
                await app.advance(by: 30)
            }
            #expect(try await Self.next(reports)
                    == SendReport(sendId: voice, verificationId: id, step: 1, result: .sent(accepted: true)))
            #expect(try await client.get("/v1/verifications/\(id)").string("channel") == "voice")
            app.clock.advance(by: leaseEnd.timeIntervalSince(app.clock.now()) + 1)
            #expect(try await Self.next(reports)
                    == SendReport(sendId: sms, verificationId: id, step: 0, result: .dropped))
            #expect(sender.delivered.map(\.idempotencyKey) == [voice], "the SMS step's code never went out")
            #expect(try await app.store.queuedSends(verificationId: id).isEmpty)
        }
    }

    @Test("a send cut short by shutdown before the provider accepted it is given back at once: the next process sends it without waiting out its lease")
    func interruptedSendIsRetriedAtOnce() async throws {
        let sender = StallingSender()
        try await TestApplication.test(.inProcess, configure: { _, dependencies in
            dependencies.sender = sender
        }) { app, client in
            let first = try #require(app.application.sendReports)
            var stalls = sender.stalls.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            let stalled = try #require(await stalls.next())
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, _) = try await started
            let key = QueuedSend.key(verificationId: id, step: 0)
            // A drain, not a kill: the worker is cancelled mid-send and the provider never accepted.
            try await app.restart()
            #expect(try await Self.next(first)
                    == SendReport(sendId: key, verificationId: id, step: 0, result: .interrupted))
            let second = try #require(app.application.sendReports)
            // Well inside the lease the first worker took (`SendWorker.lease`): only a row given
            // back is due yet. One idle poll, so a worker that looked just before the row was
            // due looks again.
            app.clock.advance(by: SendWorker.idlePoll)
            #expect(try await Self.next(second)
                    == SendReport(sendId: key, verificationId: id, step: 0, result: .sent(accepted: true)))
            #expect(sender.delivered.map(\.idempotencyKey) == [key])
            #expect(sender.delivered.first.flatMap(Self.code(in:)) == Self.code(in: stalled))
        }
    }

    @Test("a sealed code opens only for the row it was written for: copied onto another verification's or step's row, it opens to nothing")
    func sealedCodeIsBoundToItsRow() async throws {
        try await TestApplication.test(.inProcess) { app, _ in
            let outbox = try #require(app.application.assembled.withLock { $0?.engine.runner.sends })
            let at = app.clock.now()
            let row = try outbox.row(verificationId: "vf_a", step: 0, channel: .sms, code: "123456", at: at)
            #expect(outbox.code(in: row) == "123456")
            for (id, step) in [("vf_b", 0), ("vf_a", 1)] {
                var other = try outbox.row(verificationId: id, step: step, channel: .sms, code: "654321", at: at)
                other.sealedCode = row.sealedCode
                #expect(outbox.code(in: other) == nil, "\(id) step \(step) opened another row's code")
            }
        }
    }

    @Test("a copy of the database taken while a send is queued holds its sealed row but not the code")
    func queuedCodeIsSealed() async throws {
        let sender = StallingSender()
        let directory = try KeyFixtures.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("tacit.db").path
        try await TestApplication.test(.inProcess, configure: { configuration, dependencies in
            configuration.databasePath = db
            dependencies.sender = sender
        }) { app, client in
            var stalls = sender.stalls.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            let stalled = try #require(await stalls.next())
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            _ = try await started
            let code = try #require(Self.code(in: stalled))
            let copy = try KeyFixtures.copyDatabase(db, into: directory.appendingPathComponent("leaked"))
            #expect(try StoredFiles.column("sealed_code", of: "send_outbox", in: copy).count == 1)
            let values = try StoredFiles.storedValues(copy)
            #expect(!values.contains { $0.digitRuns.contains(code) }, "the copy holds the code")
            #expect(!values.contains { $0.contains(bytes: Array(Self.number.utf8)) }, "the copy holds the number")
        }
    }
}
