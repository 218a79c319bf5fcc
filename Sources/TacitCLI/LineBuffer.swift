import Foundation
import Synchronization

/// Lines of input handed to whichever prompt is waiting. A prompt that is cancelled (the
/// flow moved on to another channel) gives up its turn without losing a line. Lines come
/// from `send` (a test) or from a source started at the first read (standard input).
public final class LineBuffer: Sendable {
    private struct State {
        var lines: [String] = []
        var ended = false
        var started = false
        var nextTicket = 0
        var waiter: (ticket: Int, continuation: CheckedContinuation<String?, Never>)?
    }

    private let state = Mutex(State())
    private let source: (@Sendable (LineBuffer) -> Void)?

    /// A buffer filled by `send` and ended by `finish`, or by `source`, which is started
    /// the first time a line is asked for (so nothing is read unless a command wants it).
    public init(source: (@Sendable (LineBuffer) -> Void)? = nil) {
        self.source = source
    }

    /// Input that has already ended, as `/dev/null` is.
    public static var ended: LineBuffer {
        let buffer = LineBuffer()
        buffer.finish()
        return buffer
    }

    /// The next line, or nil at end of input or when the task is cancelled.
    func next() async -> String? {
        startIfNeeded()
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            return state.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: String?? = state.withLock { state in
                    if Task.isCancelled || state.ended && state.lines.isEmpty { return .some(nil) }
                    if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                    state.waiter = (ticket, continuation)
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            resume(ticket: ticket, with: nil)
        }
    }

    /// Adds one line (without its newline; a trailing carriage return is dropped).
    public func send(_ raw: String) {
        let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard let waiter = state.waiter else {
                state.lines.append(line)
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: line)
    }

    /// Ends the input: once the lines sent are read, `next` answers nil.
    public func finish() {
        state.withLock { $0.ended = true }
        resume(ticket: nil, with: nil)
    }

    private func resume(ticket: Int?, with line: String?) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard let waiter = state.waiter, ticket == nil || waiter.ticket == ticket else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: line)
    }

    private func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        if start, let source { source(self) }
    }
}
