import Dispatch

/// A database file with one writer connection and one reader connection, each
/// confined to its own serial queue, for use from async code.
///
/// SQLite calls block, and Swift's cooperative pool has only as many threads as
/// cores, so they must not run there: each call hops to the connection's queue
/// and the caller's task suspends until it finishes. In WAL mode the reader
/// sees the last committed state and never waits for the writer.
///
/// Writes are serialised, so a read-modify-write inside one `write` closure
/// never loses an update; use ``SQLiteConnection/transaction(_:)`` inside it
/// to make several statements atomic.
// @unchecked Sendable: each connection is only touched from its own serial queue.
public final class SQLiteDatabase: @unchecked Sendable {
    /// The database file.
    public let path: String
    private let writer: SQLiteConnection
    private let reader: SQLiteConnection
    private let writerQueue = DispatchQueue(label: "tacit.sqlite.writer")
    private let readerQueue = DispatchQueue(label: "tacit.sqlite.reader")

    /// Opens (creating if missing) the file at `path`. `path` must be a file:
    /// `:memory:` would give the two connections two different databases.
    public init(path: String, options: SQLiteOptions = SQLiteOptions()) throws {
        self.path = path
        var readOptions = options
        readOptions.readOnly = true
        // The writer opens first: it switches the file to WAL for the reader.
        writer = try SQLiteConnection(path: path, options: options)
        reader = try SQLiteConnection(path: path, options: readOptions)
    }

    /// Runs `body` on the writer connection, after every earlier write.
    public func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await run(body, onReader: false)
    }

    /// Runs `body` on the read-only connection; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await run(body, onReader: true)
    }

    /// Applies `migrator`'s pending migrations on the writer; returns their names.
    @discardableResult
    public func migrate(_ migrator: Migrator) async throws -> [String] {
        try await write { try migrator.migrate($0) }
    }

    /// Closes both connections once their queued work is done; later calls throw.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writerQueue.async {
                self.writer.close()
                self.readerQueue.async {
                    self.reader.close()
                    done.resume()
                }
            }
        }
    }

    private func run<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws -> T, onReader: Bool
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            (onReader ? readerQueue : writerQueue).async {
                let connection = onReader ? self.reader : self.writer
                continuation.resume(with: Result { try body(connection) })
            }
        }
    }
}
