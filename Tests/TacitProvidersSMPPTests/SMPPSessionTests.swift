import Foundation
import Synchronization
import Testing
import TacitCore
import TacitServer
import TacitTesting
@testable import TacitProvidersSMPP

/// The long-lived session against a loopback SMSC: the bind, answers matched by sequence
/// number, the window, the response timeout, and what a dropped or broken link does.
@Suite("SMPP session against a loopback SMSC", .timeLimit(.minutes(1)))
struct SMPPSessionTests {
    static func settings(_ smsc: LoopbackSMSC, window: Int = 10, enquireLink: TimeInterval = 3600) -> SMPPSettings {
        var settings = SMPPSettings(host: "127.0.0.1", port: smsc.port, systemId: "tacit", password: "pw0rd", systemType: "OTP",
                                    sourceAddress: "Acme", window: window, enquireLinkInterval: enquireLink, timeout: 5)
        settings.reconnectDelay = 0
        return settings
    }

    static func message(_ number: String, step: Int = 0) -> OutboundMessage {
        OutboundMessage(channel: .sms, to: number, body: "Your Acme code is 123456", verificationId: "vf_test", step: step)
    }

    /// Runs a session on `clock` for `body`, collecting the receipts it hands on.
    func withSession(_ smsc: LoopbackSMSC, window: Int = 10, clock: any TacitClock = ManualClock(), enquireLink: TimeInterval = 3600,
                     _ body: (SMPPClient, SMPPSender, AsyncStream<ProviderReceipt>) async throws -> Void) async throws {
        let client = SMPPClient(settings: Self.settings(smsc, window: window, enquireLink: enquireLink), clock: clock, log: { _ in })
        let (receipts, received) = AsyncStream.makeStream(of: ProviderReceipt.self)
        defer { smsc.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run(receipts: ProviderReceiptSink { received.yield($0) }) }
            try await body(client, SMPPSender(client: client), receipts)
            group.cancelAll()
        }
    }

    @Test("the session binds as a transceiver with the system id, password and system type, and a submit comes back with the SMSC's id")
    func bindAndSubmit() async throws {
        let smsc = try LoopbackSMSC { _ in "msg-0001" }
        try await withSession(smsc) { _, sender, _ in
            let result = await sender.send(Self.message("+447400123456"))
            #expect(result.acceptedBy == .accepted(by: "smpp", messageId: "msg-0001"))
            let bind = try #require(smsc.received(.bindTransceiver).first)
            #expect(bind.pdu.body == SMPPBind(systemId: "tacit", password: "pw0rd", systemType: "OTP").body())
        }
    }

    @Test("answers that come back out of order reach the submit they answer, by sequence number")
    func outOfOrder() async throws {
        let smsc = try LoopbackSMSC { _ in nil }
        try await withSession(smsc) { _, sender, _ in
            async let first = sender.send(Self.message("+447400000001"))
            async let second = sender.send(Self.message("+447400000002"))
            await smsc.wait(for: 2, .submitSm)
            for pdu in smsc.held.reversed() {
                let to = try SubmitFields.destination(pdu.body)
                smsc.respond(to: pdu, id: "id-" + to)
            }
            #expect(await first.acceptedBy?.messageId == "id-447400000001")
            #expect(await second.acceptedBy?.messageId == "id-447400000002")
        }
    }

    @Test("with a window of 2 and both answers held, a third submit_sm is written only after one is answered")
    func window() async throws {
        let smsc = try LoopbackSMSC { _ in nil }
        try await withSession(smsc, window: 2) { client, sender, _ in
            async let results = withTaskGroup(of: DeliveryResult.self) { group in
                for n in 1...3 { group.addTask { await sender.send(Self.message("+44740000000\(n)")) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            await smsc.wait(for: 2, .submitSm)
            #expect(await client.link(waitingUpTo: 1)?.window.inFlight == 2)
            smsc.respond(to: smsc.held[0], id: "a")
            await smsc.wait(for: 3, .submitSm)
            #expect(smsc.received(.submitSm).map(\.answeredBefore) == [0, 0, 1])
            for pdu in smsc.held.dropFirst() { smsc.respond(to: pdu, id: "b\(pdu.sequence)") }
            #expect(await results.allSatisfy(\.isAccepted))
        }
    }

    @Test("a submit the SMSC never answers gives up after the response timeout as a transient refusal")
    func timeout() async throws {
        let smsc = try LoopbackSMSC { _ in nil }
        let clock = ManualClock()
        try await withSession(smsc, clock: clock) { _, sender, _ in
            async let result = sender.send(Self.message("+447400123456"))
            await smsc.wait(for: 1, .submitSm)
            clock.advance(by: 5)
            let refused = await result
            #expect(refused.refusal == .transient)
            #expect(refused.reason == "provider_unreachable")
            #expect(smsc.received(.submitSm).count == 1)
        }
    }

    @Test("a link dropped before the SMSC answered refuses that submit without sending it again, and the next goes out on the new link")
    func dropped() async throws {
        let smsc = try LoopbackSMSC { pdu in (try? SubmitFields.destination(pdu.body)) == "447400000001" ? nil : "msg-2" }
        try await withSession(smsc) { _, sender, _ in
            async let first = sender.send(Self.message("+447400000001"))
            await smsc.wait(for: 1, .submitSm)
            smsc.drop()
            let refused = await first
            #expect(refused.refusal == .transient && refused.reason == "provider_unreachable")
            await smsc.wait(for: 2, .bindTransceiver)
            let second = await sender.send(Self.message("+447400000002"))
            #expect(second.acceptedBy?.messageId == "msg-2")
            let submits = smsc.received(.submitSm)
            #expect(submits.map(\.connection) == [1, 2])
            let destinations = try submits.map { try SubmitFields.destination($0.pdu.body) }
            #expect(destinations == ["447400000001", "447400000002"])
        }
    }

    @Test("a PDU with an impossible length or one past the size limit from the SMSC closes the link, and the session binds again",
          arguments: [[0, 0, 0, 8, 0, 0, 0, 0x15, 0, 0, 0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0, 0, 0x15, 0, 0, 0, 0, 0, 0, 0, 1]] as [[UInt8]])
    func malformed(bytes: [UInt8]) async throws {
        let smsc = try LoopbackSMSC()
        try await withSession(smsc) { client, _, _ in
            let link = try #require(await client.link(waitingUpTo: 5))
            smsc.send(bytes)
            await link.waitUntilClosed()
            await smsc.wait(for: 2, .bindTransceiver)
            #expect(link.closed)
        }
    }

    @Test("a quiet link gets an enquire_link after the interval, and the session unbinds when it stops")
    func keepAliveAndUnbind() async throws {
        let smsc = try LoopbackSMSC()
        defer { smsc.stop() }
        // The real clock with a short interval: the keep-alive's sleep starts after the bind,
        // at a moment the test can't see, so a manual clock could be moved too early.
        let client = SMPPClient(settings: Self.settings(smsc, enquireLink: 0.05), log: { _ in })
        let session = Task { await client.run(receipts: ProviderReceiptSink { _ in }) }
        await smsc.wait(for: 1, .enquireLink)
        session.cancel()
        await session.value
        await smsc.wait(for: 1, .unbind)
    }

    @Test("a delivery receipt for a submitted message reaches the sink with the message's verification and step, and the SMSC gets its deliver_sm_resp")
    func receipt() async throws {
        let smsc = try LoopbackSMSC { _ in "msg-7" }
        try await withSession(smsc) { _, sender, receipts in
            _ = await sender.send(Self.message("+447400123456", step: 1))
            let text = Array("id:msg-7 sub:001 dlvrd:001 submit date:2601010000 done date:2601010000 stat:UNDELIV err:021 text:".utf8)
            let deliver = SMPPDeliver(sourceAddress: "447400123456", esmClass: 0x04, shortMessage: text)
            smsc.send(SMPPPDU(.deliverSm, sequence: 9, body: deliver.body()).encoded())
            var next = receipts.makeAsyncIterator()
            let got = try #require(await next.next())
            await smsc.wait(for: 1, .deliverSmResp)
            #expect(got == ProviderReceipt(provider: "smpp", verificationId: "vf_test", step: 1, status: "UNDELIV", outcome: .failed,
                                           messageId: "msg-7", errorCode: "021"))
            #expect(smsc.received(.deliverSmResp).first?.pdu.sequence == 9)
        }
    }
}

/// Reads the destination of a submit_sm body, for the loopback SMSC's rules.
enum SubmitFields {
    static func destination(_ body: [UInt8]) throws -> String {
        var reader = SMPPReader(body)
        _ = try reader.cString(maximum: 6)
        _ = try [reader.u8(), reader.u8()]
        _ = try reader.cString(maximum: 21)
        _ = try [reader.u8(), reader.u8()]
        return try reader.cString(maximum: 21)
    }
}
