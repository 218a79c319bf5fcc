import Foundation
import Synchronization
import TacitCore

/// One connection to the SMSC, from the bind to its close. Its own thread reads PDUs and
/// answers the SMSC's requests (`enquire_link`, `deliver_sm`, `unbind`); callers' requests
/// take a window slot, are matched to their answer by sequence number, and give up after
/// the response timeout. Anything unreadable from the peer closes the link; nothing is retried on it.
final class SMPPLink: Sendable {
    enum Answer: Sendable, Equatable {
        case pdu(SMPPPDU)
        /// The link closed before the answer came: the SMSC may or may not have the request.
        case closed
        case timedOut
    }

    let socket: SMPPSocket
    let window: SMPPWindow
    let clock: any TacitClock
    private let answers = SMPPWaiters<SMPPPDU>()
    private let closing = SMPPWaiters<Void>()
    private let sequence = Atomic<UInt32>(0)
    private let isClosed = Atomic<Bool>(false)
    private let closeWaiterKeys = Atomic<UInt64>(0)

    init(socket: SMPPSocket, window: Int, clock: any TacitClock) {
        self.socket = socket
        self.window = SMPPWindow(size: window)
        self.clock = clock
    }

    var closed: Bool { isClosed.load(ordering: .acquiring) }

    /// Starts the reader thread; each `deliver_sm` is answered, then handed to `deliveries`.
    func start(deliveries: @escaping @Sendable (SMPPDeliver) -> Void) {
        Thread.detachNewThread { [self] in
            while let pdu = try? socket.readPDU(), handle(pdu, deliveries: deliveries) {}
            close()
        }
    }

    /// Sends one request and waits for its answer, for at most `timeout` seconds once written.
    func request(_ command: SMPPPDU.Command, body: [UInt8] = [], timeout: TimeInterval) async -> Answer {
        guard await window.acquire() else { return .closed }
        defer { window.release() }
        let number = nextSequence()
        let pdu = SMPPPDU(command, sequence: number, body: body).encoded()
        let deadline = clock.now().addingTimeInterval(timeout)
        return await withTaskGroup(of: Answer.self) { group in
            group.addTask {
                let answer = await self.answers.wait(UInt64(number)) {
                    do { try self.socket.write(pdu) } catch { self.close() }
                }
                return answer.map(Answer.pdu) ?? .closed
            }
            group.addTask {
                try? await self.clock.sleep(until: deadline)
                return .timedOut
            }
            let first = await group.next() ?? .closed
            group.cancelAll()
            return first
        }
    }

    /// Sequence numbers run from 1 to 0x7FFFFFFF and wrap (SMPP 3.4 §3.2).
    private func nextSequence() -> UInt32 {
        let next = sequence.wrappingAdd(1, ordering: .relaxed).newValue & 0x7FFF_FFFF
        return next == 0 ? nextSequence() : next
    }

    /// Whether to keep reading: false once the SMSC unbinds.
    private func handle(_ pdu: SMPPPDU, deliveries: @Sendable (SMPPDeliver) -> Void) -> Bool {
        if pdu.isResponse {
            answers.resume(UInt64(pdu.sequence), with: pdu)
            return true
        }
        switch pdu.command {
        case .enquireLink:
            reply(.enquireLinkResp, to: pdu)
        case .deliverSm:
            guard let deliver = try? SMPPDeliver(body: pdu.body) else { return false }
            // An empty message_id: the answer a receipt takes.
            reply(.deliverSmResp, to: pdu, body: [0])
            deliveries(deliver)
        case .unbind:
            reply(.unbindResp, to: pdu)
            return false
        default:
            // ESME_RINVCMDID: a request this ESME does not take.
            try? socket.write(SMPPPDU(.genericNack, status: 0x03, sequence: pdu.sequence).encoded())
        }
        return true
    }

    private func reply(_ command: SMPPPDU.Command, to request: SMPPPDU, body: [UInt8] = []) {
        try? socket.write(SMPPPDU(command, sequence: request.sequence, body: body).encoded())
    }

    /// Says goodbye on the way out: the application is stopping, so the task is cancelled
    /// and can wait for no `unbind_resp`; the SMSC still learns the session ended on purpose.
    func unbindAndClose() {
        try? socket.write(SMPPPDU(.unbind, sequence: nextSequence()).encoded())
        close()
    }

    /// Closes once: every request waiting for an answer or a slot ends with `.closed`.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        socket.shutdown()
        window.close()
        answers.resumeAll(with: nil, closing: true)
        closing.resumeAll(with: (), closing: true)
    }

    /// Returns once the link has closed, or when the task is cancelled.
    func waitUntilClosed() async {
        _ = await closing.wait(closeWaiterKeys.wrappingAdd(1, ordering: .relaxed).newValue)
    }
}
