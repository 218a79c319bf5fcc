import Foundation
import Glibc
import Synchronization
@testable import TacitProvidersSMPP
import TacitTesting

/// An SMSC on an ephemeral loopback port for the session tests: it records every PDU the
/// ESME sends, answers binds and enquire_links at once, answers submit_sm by the test's
/// rule or holds them for the test to answer, and can drop the connection or send bytes of its own.
final class LoopbackSMSC: Sendable {
    struct Received: Sendable {
        var pdu: SMPPPDU
        /// Which connection (1, 2, …) it came on.
        var connection: Int
        /// Answers to submit_sm sent before it arrived.
        var answeredBefore: Int
    }

    private struct State {
        var received: [Received] = []
        var connections: [SMPPSocket] = []
        var held: [SMPPPDU] = []
        var answered = 0
        var waiters: [(ticket: Int, check: @Sendable ([Received]) -> Bool,
                       continuation: CheckedContinuation<Void, Never>)] = []
        var tickets = 0
    }

    let port: Int
    /// The message id for a submit_sm, or nil to hold it.
    let answer: @Sendable (SMPPPDU) -> String?
    private let listener: LoopbackListener
    private let state = Mutex(State())

    init(answer: @escaping @Sendable (SMPPPDU) -> String? = { _ in "msg-\(UUID().uuidString.prefix(8))" }) throws {
        self.answer = answer
        // The shared listener closes its socket only from its own accept loop: closing it
        // from `stop()` while the loop still accepted let the loop take connections meant
        // for another test's server that had been given the same descriptor number.
        let reference = Reference()
        listener = try LoopbackListener { descriptor in
            // A socket owns its descriptor and closes it when it goes, served or not.
            let connection = SMPPSocket(descriptor: descriptor)
            reference.smsc.withLock { $0.value }?.serve(connection)
        }
        port = listener.port
        reference.smsc.withLock { $0.value = self }
    }

    /// How the listener's handler reaches the SMSC made after it, without keeping it alive.
    private final class Reference: Sendable {
        struct Weak: Sendable { weak var value: LoopbackSMSC? }
        let smsc = Mutex(Weak())
    }

    private func serve(_ connection: SMPPSocket) {
        let number = state.withLock { $0.connections.append(connection); return $0.connections.count }
        Thread.detachNewThread { [self] in
            while let pdu = try? connection.readPDU() { take(pdu, on: connection, number: number) }
        }
    }

    private func take(_ pdu: SMPPPDU, on connection: SMPPSocket, number: Int) {
        let id = pdu.command == .submitSm ? answer(pdu) : nil
        // Held before any waiter wakes, so a test that saw the PDU arrive finds it held.
        let woken = state.withLock { state in
            state.received.append(Received(pdu: pdu, connection: number, answeredBefore: state.answered))
            if pdu.command == .submitSm, id == nil { state.held.append(pdu) }
            let all = state.received
            let ready = state.waiters.filter { $0.check(all) }
            state.waiters.removeAll { $0.check(all) }
            return ready.map(\.continuation)
        }
        woken.forEach { $0.resume() }
        switch pdu.command {
        case .bindTransceiver: try? connection.write(SMPPPDU(.bindTransceiverResp, sequence: pdu.sequence, body: Array("SMSC\0".utf8)).encoded())
        case .enquireLink: try? connection.write(SMPPPDU(.enquireLinkResp, sequence: pdu.sequence).encoded())
        case .unbind: try? connection.write(SMPPPDU(.unbindResp, sequence: pdu.sequence).encoded())
        case .submitSm: if let id { respond(to: pdu, id: id) }
        default: break
        }
    }

    /// Answers a submit_sm with `id`, or refuses it with `status`.
    func respond(to pdu: SMPPPDU, id: String = "", status: UInt32 = 0) {
        let connection = state.withLock { state in
            state.answered += 1
            return state.connections.last
        }
        try? connection?.write(SMPPPDU(.submitSmResp, status: status, sequence: pdu.sequence, body: Array((id + "\0").utf8)).encoded())
    }

    var held: [SMPPPDU] { state.withLock { $0.held } }

    func received(_ command: SMPPPDU.Command) -> [Received] {
        state.withLock { $0.received.filter { $0.pdu.command == command } }
    }

    /// Returns once `count` PDUs of `command` have arrived, or at once when the task is
    /// cancelled: a test's time limit then ends a wait for a PDU that never comes.
    func wait(for count: Int, _ command: SMPPPDU.Command) async {
        let check: @Sendable ([Received]) -> Bool = { $0.filter { $0.pdu.command == command }.count >= count }
        let ticket = state.withLock { state in
            state.tickets += 1
            return state.tickets
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state in
                    if check(state.received) || Task.isCancelled { return true }
                    state.waiters.append((ticket, check, continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiting?.resume()
        }
    }

    /// Writes raw bytes on the newest connection.
    func send(_ bytes: [UInt8]) {
        try? state.withLock { $0.connections.last }?.write(bytes)
    }

    /// Closes the newest connection from the SMSC's side.
    func drop() {
        state.withLock { $0.connections.last }?.shutdown()
    }

    func stop() {
        listener.stop()
        state.withLock { $0.connections }.forEach { $0.shutdown() }
    }
}
