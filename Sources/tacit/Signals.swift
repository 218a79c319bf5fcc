import Dispatch
import Foundation

/// Waits for a termination signal without blocking a thread.
enum Signals {
    static func wait(for signals: [Int32]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "tacit.signals")
            let once = OnceFlag()
            var sources: [DispatchSourceSignal] = []
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    if once.take() { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
            // The sources must live as long as the process waits.
            Signals.keep(sources)
        }
    }

    nonisolated(unsafe) private static var kept: [DispatchSourceSignal] = []
    private static func keep(_ sources: [DispatchSourceSignal]) { kept += sources }
}

/// True exactly once.
final class OnceFlag: @unchecked Sendable {
    // @unchecked: only touched from the one serial signal queue.
    private var taken = false
    func take() -> Bool {
        defer { taken = true }
        return !taken
    }
}
