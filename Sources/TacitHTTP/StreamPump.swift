/// Binds a streaming response's `StreamWriter` to its connection for libmicrohttpd's
/// content reader, and turns an `AsyncStream` body into a writer.
final class StreamPump: Sendable {
    let writer: StreamWriter
    let connection: ConnectionHandle
    let core: ServerCore

    init(writer: StreamWriter, connection: ConnectionHandle, core: ServerCore) {
        self.writer = writer
        self.connection = connection
        self.core = core
    }

    /// A writer fed by a task that drains `stream`. The task is the bridge from the
    /// handler's stream to C callbacks; it is cancelled when the stream ends for any
    /// reason (client gone, shutdown), so the stream's `onTermination` runs.
    static func draining(_ stream: AsyncStream<[UInt8]>) -> StreamWriter {
        let writer = StreamWriter()
        let task = Task.detached {
            for await chunk in stream {
                writer.write(chunk)
            }
            writer.finish()
        }
        writer.onTermination = { task.cancel() }
        return writer
    }

    /// Ends the response once the buffer drains (shutdown).
    func finish() { writer.finish() }

    /// The connection is gone: stop the producer.
    func close() { writer.close() }

    /// libmicrohttpd's content reader. Runs on a libmicrohttpd thread.
    func read(into destination: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        writer.read(into: destination, max: max, connection: connection)
    }
}
