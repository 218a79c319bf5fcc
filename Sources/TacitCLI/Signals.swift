import Dispatch
import Foundation
import Synchronization

/// Waits for a termination signal without blocking a thread: the executable's
/// `CommandContext.interruption`.
public enum Signals {
    /// Returns when one of `signals` arrives (from then on they no longer end the process
    /// by themselves), or when the waiting task is cancelled.
    public static func wait(for signals: [Int32]) async {
        let once = OnceFlag()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancelled already: no signal is taken over.
                guard once.arm(continuation) else { return }
                let queue = DispatchQueue(label: "tacit.signals")
                var sources: [DispatchSourceSignal] = []
                for number in signals {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler { once.fire() }
                    source.resume()
                    sources.append(source)
                }
                // The sources must live as long as the process waits.
                kept.keep(sources)
            }
        } onCancel: {
            once.fire()
        }
    }

    private static let kept = KeptSources()
}

/// Signal sources kept for the life of the process.
private final class KeptSources: @unchecked Sendable {
    // @unchecked: `sources` is only touched under `lock`.
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []

    func keep(_ more: [DispatchSourceSignal]) {
        lock.withLock { sources += more }
    }
}

/// Resumes its continuation exactly once, whichever fires first: a signal or a cancellation
/// (which may come before the continuation is even armed).
final class OnceFlag: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var fired = false
    }

    private let state = Mutex(State())

    /// Keeps `continuation` for `fire`; false (and resumed at once) when it already fired.
    func arm(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        let armed = state.withLock { state -> Bool in
            if state.fired { return false }
            state.continuation = continuation
            return true
        }
        if !armed { continuation.resume() }
        return armed
    }

    func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.fired else { return nil }
            state.fired = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
