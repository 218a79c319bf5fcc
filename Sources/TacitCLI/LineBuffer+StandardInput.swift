import Foundation

extension LineBuffer {
    /// The process's standard input, read only once a command asks for a line.
    public static func standardInput() -> LineBuffer {
        LineBuffer { buffer in
            // Reading blocks, so it gets a thread of its own, off Swift's cooperative pool.
            // It reads the file descriptor, not stdio's `stdin`: `readLine` would hold the
            // stdin FILE lock while it waits, and the `fflush(nil)` before exit would wait on it.
            Thread {
                var pending = Data()
                while case let chunk = FileHandle.standardInput.availableData, !chunk.isEmpty {
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        buffer.send(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                        pending = Data(pending[(newline + 1)...])
                    }
                }
                if !pending.isEmpty { buffer.send(String(decoding: pending, as: UTF8.self)) }
                buffer.finish()
            }.start()
        }
    }
}
