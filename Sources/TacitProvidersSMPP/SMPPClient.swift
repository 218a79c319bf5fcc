import Foundation
import Synchronization
import TacitCore
import TacitProviderKit

/// The one long-lived SMPP session of this process: binds as a transceiver, keeps the link
/// alive with `enquire_link`, reconnects with a capped backoff when it drops, and turns
/// delivery receipts into the engine's receipts. `run` is the session's life (the
/// application runs it beside its workers); senders borrow the bound link.
public final class SMPPClient: ProviderReceiptSource {
    let settings: SMPPSettings
    let clock: any TacitClock
    let log: @Sendable (String) -> Void
    let sent = SMPPSentMessages()
    private let current = Mutex<SMPPLink?>(nil)
    private let linkWaiters = SMPPWaiters<SMPPLink>()
    private let waiterKeys = Atomic<UInt64>(0)
    private let deliveries: AsyncStream<SMPPDeliver>
    private let delivered: AsyncStream<SMPPDeliver>.Continuation

    public init(settings: SMPPSettings, clock: any TacitClock = SystemClock(),
                log: @escaping @Sendable (String) -> Void = {
                    FileHandle.standardError.write(Data(($0 + "\n").utf8))
                }) {
        self.settings = settings
        self.clock = clock
        self.log = log
        (deliveries, delivered) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(10_000))
    }

    /// Keeps the session up until cancelled, then unbinds; every receipt read meanwhile
    /// that matches a message this process sent goes to `receipts`.
    public func run(receipts: ProviderReceiptSink) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.maintainLink() }
            group.addTask {
                for await deliver in self.deliveries {
                    if let receipt = self.receipt(deliver) { await receipts.deliver(receipt) }
                }
            }
        }
    }

    /// The bound link, waiting for one for at most `timeout` seconds while it reconnects.
    func link(waitingUpTo timeout: TimeInterval) async -> SMPPLink? {
        if let link = current.withLock({ $0 }), !link.closed { return link }
        let deadline = clock.now().addingTimeInterval(timeout)
        let key = waiterKeys.wrappingAdd(1, ordering: .relaxed).newValue
        return await withTaskGroup(of: SMPPLink?.self) { group in
            group.addTask {
                await self.linkWaiters.wait(key) {
                    // A link bound between the first look and the wait.
                    if let link = self.current.withLock({ $0 }), !link.closed {
                        self.linkWaiters.resume(key, with: link)
                    }
                }
            }
            group.addTask {
                try? await self.clock.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private func maintainLink() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let link = try await bind()
                failures = 0
                current.withLock { $0 = link }
                linkWaiters.resumeAll(with: link)
                log("tacit: smpp: bound to the SMSC as a transceiver (window \(settings.window))")
                await keepAlive(link)
                current.withLock { $0 = nil }
                if Task.isCancelled {
                    link.unbindAndClose()
                    return
                }
                log("tacit: smpp: the link dropped; reconnecting")
            } catch {
                failures += 1
                log("tacit: smpp: \(error); retrying")
            }
            let delay = min(settings.reconnectCap, settings.reconnectDelay * pow(2, Double(min(failures, 20))))
            try? await clock.sleep(until: clock.now().addingTimeInterval(delay))
        }
    }

    /// Connects on a thread of its own (a blocking connect must not hold the cooperative
    /// pool), starts the reader and binds.
    private func bind() async throws(SMPPLinkError) -> SMPPLink {
        let settings = settings
        let connected: Result<SMPPSocket, SMPPLinkError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(SMPPLinkError) in
                    try SMPPSocket.connect(host: settings.host, port: settings.port, timeout: settings.timeout)
                })
            }
        }
        let link = SMPPLink(socket: try connected.get(), window: settings.window, clock: clock)
        link.start { [delivered] in delivered.yield($0) }
        let bind = SMPPBind(systemId: settings.systemId, password: settings.password, systemType: settings.systemType)
        switch await link.request(.bindTransceiver, body: bind.body(), timeout: settings.timeout) {
        case .pdu(let answer)
            where answer.commandId == SMPPPDU.Command.bindTransceiverResp.rawValue && answer.status == 0:
            return link
        case .pdu(let answer):
            link.close()
            throw .bindRefused(answer.status)
        case .closed:
            throw .closed
        case .timedOut:
            link.close()
            throw .timedOut
        }
    }

    /// An `enquire_link` after every quiet interval until the link closes or the task is
    /// cancelled; an unanswered one closes the link.
    private func keepAlive(_ link: SMPPLink) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await link.waitUntilClosed() }
            group.addTask {
                while !Task.isCancelled {
                    try? await self.clock.sleep(
                        until: self.clock.now().addingTimeInterval(self.settings.enquireLinkInterval))
                    guard !Task.isCancelled else { return }
                    let answer = await link.request(.enquireLink, timeout: self.settings.timeout)
                    // A request cut short by the session stopping says nothing about the link.
                    guard !Task.isCancelled else { return }
                    if case .pdu = answer { continue }
                    link.close()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
