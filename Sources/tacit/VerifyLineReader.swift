import Foundation
import Synchronization

/// Lines from standard input, one reader thread for the whole run, handed to
/// whichever prompt is waiting. A prompt that is cancelled (the flow moved on to
/// another channel) gives up its turn without losing a line.
final class VerifyLineReader: Sendable {
    private struct State {
        var lines: [String] = []
        var ended = false
        var started = false
        var nextTicket = 0
        var waiter: (ticket: Int, continuation: CheckedContinuation<String?, Never>)?
    }

    private let state = Mutex(State())

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
        guard start else { return }
        // Reading blocks, so it gets a thread of its own, off Swift's cooperative pool.
        // It reads the file descriptor, not stdio's `stdin`: `readLine` would hold the
        // stdin FILE lock while it waits, and `fflush(nil)` (CLI.flush) would wait on it.
        Thread { [self] in
            var pending = Data()
            while case let chunk = FileHandle.standardInput.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    deliver(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
            if !pending.isEmpty { deliver(String(decoding: pending, as: UTF8.self)) }
            state.withLock { $0.ended = true }
            resume(ticket: nil, with: nil)
        }.start()
    }

    private func deliver(_ raw: String) {
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
}
