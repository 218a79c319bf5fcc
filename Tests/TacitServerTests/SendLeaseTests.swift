import Foundation
import Testing
import TacitCore
import TacitStore
@testable import TacitServer
import TacitTesting

/// A send in flight keeps its row leased through the worker's loop, which renews every
/// lease that has run `renewal` in one pass, instead of a timer beside every send.
@Suite("Send leases", .timeLimit(.minutes(1)))
struct SendLeaseTests {
    static let number = "+447911123458"

    /// A worker over the running application's runner, not started: its passes run only when the test calls them.
    static func idleWorker(_ app: TestApplication) throws -> SendWorker {
        SendWorker(runner: try #require(app.application.assembled.withLock { $0?.engine.runner }))
    }

    @Test("a lease is written again once a renewal of it has run, with a full lease from then, and not before")
    func renewsOnlyWhatIsDue() async throws {
        let provider = GatedSender("twilio")
        try await TestApplication.test(.inProcess, configure: { _, dependencies in dependencies.sender = provider }) { app, client in
            var arrivals = provider.arrivals.makeAsyncIterator()
            async let started = client.start(Self.number, channels: ["sms"])
            _ = await arrivals.next()
            app.clock.advance(by: ServerConfiguration.defaultSendWait)
            let (id, _) = try await started
            let row = try #require(try await app.store.queuedSends(verificationId: id).first)
            let worker = try Self.idleWorker(app)
            worker.inFlight.withLock { $0[row.id] = row.dueAt }
            #expect(worker.nextRenewal() == row.dueAt.addingTimeInterval(-SendWorker.renewedBelow))

            app.clock.advance(by: SendWorker.renewal - 1 - ServerConfiguration.defaultSendWait)
            await worker.renewLeases()
            #expect(try await app.store.queuedSends(verificationId: id).first?.dueAt == row.dueAt, "not due yet: nothing written")

            app.clock.advance(by: 1)
            await worker.renewLeases()
            let renewed = app.clock.now().addingTimeInterval(SendWorker.lease)
            // The store keeps times as seconds since 1970, so one may read back a hair off.
            let stored = try #require(try await app.store.queuedSends(verificationId: id).first?.dueAt)
            #expect(abs(stored.timeIntervalSince(renewed)) < 0.001)
            #expect(worker.nextRenewal() == renewed.addingTimeInterval(-SendWorker.renewedBelow))
            provider.reply(nil)
        }
    }

    @Test("with nothing in flight the loop has no renewal to wake for")
    func nothingInFlight() async throws {
        try await TestApplication.test(.inProcess) { app, _ in
            let worker = try Self.idleWorker(app)
            #expect(worker.nextRenewal() == .distantFuture)
        }
    }
}
