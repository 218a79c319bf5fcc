import CSQLite

/// One SQLite connection; owns its `sqlite3*` and closes it in `deinit`.
///
/// Not thread-safe: use it from one thread or serial queue at a time, as
/// ``SQLiteDatabase`` does. Every failing call throws ``SQLiteError``.
public final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// Statements prepared once and reused, keyed by SQL text; bounded so that
    /// SQL built with `\(raw:)` can't grow it without end.
    static let statementCacheLimit = 256
    var savepointDepth = 0
    /// What the open transaction's levels accumulated (``CommitAccumulator``): the
    /// transaction's first, then one per open savepoint. Empty outside a transaction
    /// this connection began.
    var accumulatorLevels: [AccumulatorLevel] = []

    /// Opens (creating if missing) the database file at `path` and applies `options`.
    public init(path: String, options: SQLiteOptions = SQLiteOptions()) throws(SQLiteError) {
        var connection: OpaquePointer?
        // NOMUTEX: each connection is confined to one queue, so SQLite's own lock is redundant.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let error = SQLiteError(resultCode: status, connection: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, Int32(clamping: options.busyTimeoutMilliseconds))
        try configure(options)
    }

    deinit {
        close()
    }

    private func configure(_ options: SQLiteOptions) throws(SQLiteError) {
        if options.readOnly {
            try executeScript("PRAGMA query_only = ON")
        } else {
            let mode = try query("PRAGMA journal_mode = WAL").first?.value("journal_mode")
            guard mode == .text("wal") else {
                throw SQLiteError(code: SQLITE_CANTOPEN, message: "The database could not be switched to WAL mode.")
            }
            // A savepoint keeps the pages it changes in a sub-journal, so that it can roll back
            // alone; a group commit runs each write in one, and past 64 KB SQLite spills that
            // journal to a temporary file: more than half of a create's pwrite calls went
            // there, to a file deleted at the commit (docs/performance.md#savepoints-kept-in-memory).
            // In memory it is a copy of each page, never a system call.
            try executeScript("PRAGMA temp_store = MEMORY")
        }
        try executeScript("PRAGMA synchronous = \(options.synchronous.rawValue)")
        try executeScript("PRAGMA foreign_keys = ON")
        // A 4 MB page cache, and no memory-mapped reads.
        // - When a B-tree split reorders sibling pages, SQLite parks a page at the lock-byte
        //   page number, and the commit then walks the whole page cache to drop pages past
        //   the file's end. With random keys in the indexes most commits split somewhere,
        //   so a large cache costs more in those walks than it saves in reads, which come
        //   from the OS's cache in microseconds (measured: 32 MB → 4 MB cut a check's
        //   writer time about 10 %).
        // - SQLite maps the file's current size and maps it again whenever the file grows,
        //   which it does at every checkpoint that adds pages, and unmapping megabytes
        //   (TLB shoot-downs on every core) costs more than the reads it saves.
        try executeScript("PRAGMA mmap_size = 0; PRAGMA cache_size = -4096")
    }

    /// Finalizes cached statements and closes the connection; later calls throw.
    public func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one statement and discards any rows.
    public func execute(_ sql: SQL) throws(SQLiteError) {
        _ = try query(sql)
    }

    /// Runs one statement and discards any rows; when not `cached`, prepares it for this
    /// one use, for SQL whose text seldom repeats and would push others out of the cache.
    public func execute(_ sql: SQL, cached: Bool) throws(SQLiteError) {
        guard !cached else { return try execute(sql) }
        _ = try SQLiteStatement(connection: try liveHandle(), sql: sql.text, persistent: false).run(sql.bindings)
    }

    /// Runs one statement and returns its rows.
    public func query(_ sql: SQL) throws(SQLiteError) -> [Row] {
        let statement = try statement(for: sql.text)
        statement.inUse = true
        defer { statement.inUse = false }
        return try statement.run(sql.bindings)
    }

    /// Runs several `;`-separated statements without parameters (schema scripts, pragmas).
    public func executeScript(_ text: String) throws(SQLiteError) {
        let connection = try liveHandle()
        let status = sqlite3_exec(connection, text, nil, nil, nil)
        guard status == SQLITE_OK else { throw SQLiteError(resultCode: status, connection: connection) }
    }

    /// Runs one transaction-control statement (`BEGIN`, `COMMIT`, `SAVEPOINT`, `RELEASE`)
    /// through the statement cache: every write runs several, and preparing them each
    /// time costs more than running them.
    public func control(_ text: String) throws(SQLiteError) {
        _ = try query(SQL(stringLiteral: text))
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    func liveHandle() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw .closed }
        return handle
    }

    private func statement(for text: String) throws(SQLiteError) -> SQLiteStatement {
        let connection = try liveHandle()
        if let cached = statements[text], !cached.inUse { return cached }
        let persistent = statements[text] == nil
        let statement = try SQLiteStatement(connection: connection, sql: text, persistent: persistent)
        guard persistent else { return statement }
        if statements.count >= Self.statementCacheLimit { statements.removeAll() }
        statements[text] = statement
        return statement
    }
}
