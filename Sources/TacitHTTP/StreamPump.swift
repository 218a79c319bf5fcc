import CMicroHTTPD
import Synchronization

/// Feeds one streaming response: a task drains the `AsyncStream` into a buffer, and
/// libmicrohttpd's content-reader callback takes from it. When the buffer is empty the
/// reader suspends the connection, so an idle stream holds no thread and burns no CPU;
/// the next chunk (or the end) resumes it.
final class StreamPump: Sendable {
    fileprivate struct State {
        var buffer: [UInt8] = []
        var offset = 0
        var finished = false
        var closed = false
        var waiting = false
        var task: Task<Void, Never>?
    }

    private let connection: ConnectionHandle
    let core: ServerCore
    private let state = Mutex(State())

    init(connection: ConnectionHandle, core: ServerCore) {
        self.connection = connection
        self.core = core
    }

    /// Starts draining `stream`. The task is the bridge from the handler's stream to C
    /// callbacks, and it is cancelled when the client leaves or the server shuts down.
    func start(_ stream: AsyncStream<[UInt8]>) {
        let task = Task.detached { [self] in
            for await chunk in stream {
                self.push(chunk)
            }
            self.finish()
        }
        let closedAlready = state.withLock { state -> Bool in
            state.task = task
            return state.closed
        }
        if closedAlready { task.cancel() }
    }

    func push(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        let wake = state.withLock { state -> Bool in
            guard !state.closed, !state.finished else { return false }
            state.buffer.append(contentsOf: chunk)
            return state.takeWaiting()
        }
        if wake { connection.resume() }
    }

    /// Ends the response once the buffer drains; also cancels the producer (shutdown).
    func finish() {
        let (wake, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            state.finished = true
            return (state.takeWaiting(), state.task)
        }
        task?.cancel()
        if wake { connection.resume() }
    }

    /// The connection is gone: stop the producer so its `onTermination` runs.
    func close() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.closed = true
            return state.task
        }
        task?.cancel()
    }

    /// libmicrohttpd's content reader: copies buffered bytes, ends the stream, or
    /// suspends the connection until there is more. Runs on a libmicrohttpd thread.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        return state.withLock { state -> Int in
            let available = state.buffer.count - state.offset
            if available > 0 {
                let count = min(available, max)
                state.buffer.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(destination).copyMemory(
                        from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.consume(count)
                return count
            }
            if state.finished || state.closed { return Int(CMHD_READER_END_OF_STREAM) }
            // Suspend while holding the lock: a producer can only resume after this.
            state.waiting = true
            connection.suspend()
            return 0
        }
    }
}

extension StreamPump.State {
    fileprivate mutating func takeWaiting() -> Bool {
        defer { waiting = false }
        return waiting
    }

    fileprivate mutating func consume(_ count: Int) {
        offset += count
        if offset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            offset = 0
        }
    }
}
