// tacit-smpp-bench: messages per second through one SMPP session, as `tacit serve` holds
// it: the SMPP sender (submit_sm built, written, matched to its submit_sm_resp by sequence
// number) over one bound transceiver link to the SMSC at --host/--port. --senders tasks
// send without pause for --seconds, so the window (--window) is what limits how many
// submits are in flight. Prints one JSON line: messages, refusals, seconds, messages/s.
//
// Usage: tacit-smpp-bench --port PORT [--host 127.0.0.1] [--window 10] [--seconds 3] [--senders 32]
import Foundation
import Synchronization
import TacitCore
import TacitProvidersSMPP
import TacitProviderKit

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: String) -> String {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? fallback
}
let window = Int(option("--window", "10")) ?? 10
let seconds = Double(option("--seconds", "3")) ?? 3
let senders = Int(option("--senders", "32")) ?? 32
let settings = SMPPSettings(host: option("--host", "127.0.0.1"), port: Int(option("--port", "2775")) ?? 2775, systemId: "bench",
                            password: "bench", sourceAddress: "Tacit", window: window, timeout: 10)
let client = SMPPClient(settings: settings, log: { _ in })
let sender = SMPPSender(client: client)
let message = OutboundMessage(channel: .sms, to: "+447400123456", body: "Your Acme verification code is 123456", verificationId: "vf_bench")

let sent = Atomic<Int>(0)
let refused = Atomic<Int>(0)
let elapsed = await withTaskGroup(of: Void.self, returning: Double.self) { group in
    group.addTask { await client.run(receipts: ProviderReceiptSink { _ in }) }
    // The first send waits for the bind; timing starts once the link is up.
    _ = await sender.send(message)
    let start = ContinuousClock.now
    let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
    await withTaskGroup(of: Void.self) { loops in
        for _ in 0..<senders {
            loops.addTask {
                while ContinuousClock.now < end {
                    let result = await sender.send(message)
                    if result.isAccepted { sent.wrappingAdd(1, ordering: .relaxed) } else { refused.wrappingAdd(1, ordering: .relaxed) }
                }
            }
        }
    }
    let duration = start.duration(to: ContinuousClock.now)
    group.cancelAll()
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
let messages = sent.load(ordering: .relaxed)
print(#"{"window": \#(window), "messages": \#(messages), "refused": \#(refused.load(ordering: .relaxed)), "seconds": \#(elapsed), "per_second": \#(Double(messages) / elapsed)}"#)
