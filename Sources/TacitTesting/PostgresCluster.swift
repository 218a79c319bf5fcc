import Foundation
import Glibc
import Synchronization
import TacitStorePostgres

/// A throwaway PostgreSQL cluster for tests: `initdb` in a temporary directory, `postgres`
/// on a free loopback port with its socket in that directory, stopped (`pg_ctl stop -m
/// fast`) and removed when the test process exits. One cluster serves the whole process;
/// each test takes a fresh database of it with `makeDatabase()`, or a fresh schema of one
/// shared database with `makeSchema()` (what `makeStore()` uses).
///
/// A cluster that can't start is an error, never a skip: only `TACIT_TEST_POSTGRES=off`,
/// set by hand for a quick run, leaves PostgreSQL out (see `enabled`).
public final class PostgresCluster: Sendable {
    public let directory: URL
    public let port: Int
    /// The superuser `initdb` makes; loopback connections are trusted.
    public let user = "tacit"
    private let admin: PostgresPool
    private let schemaAdmin: PostgresPool
    /// The database the stores of `makeStore` share, each in a schema of its own.
    static let sharedDatabase = "tacit_tests"
    private let created = Mutex(0)

    /// False only when `TACIT_TEST_POSTGRES=off` is set.
    public static var enabled: Bool { ProcessInfo.processInfo.environment["TACIT_TEST_POSTGRES"] != "off" }

    private enum Start {
        case idle
        case starting([CheckedContinuation<PostgresCluster, any Error>])
        case done(Result<PostgresCluster, any Error>)
    }

    private static let start = Mutex(Start.idle)

    /// The process's cluster, started by the first caller (a few seconds, once). `initdb`
    /// and `pg_ctl` run on a thread of their own while every caller suspends: blocking
    /// Swift's cooperative threads for that long would stall every other test meanwhile.
    public static func shared() async throws -> PostgresCluster {
        try await withCheckedThrowingContinuation { continuation in
            let (known, first) = start.withLock { state -> (Result<PostgresCluster, any Error>?, Bool) in
                switch state {
                case .done(let result): return (result, false)
                case .starting(let waiters):
                    state = .starting(waiters + [continuation])
                    return (nil, false)
                case .idle:
                    state = .starting([continuation])
                    return (nil, true)
                }
            }
            if let known { return continuation.resume(with: known) }
            guard first else { return }
            Thread.detachNewThread {
                let result = Result { try PostgresCluster() }
                if case .success = result { atexit { PostgresCluster.stopShared() } }
                let waiters = start.withLock { state -> [CheckedContinuation<PostgresCluster, any Error>] in
                    defer { state = .done(result) }
                    if case .starting(let waiters) = state { return waiters }
                    return []
                }
                waiters.forEach { $0.resume(with: result) }
            }
        }
    }

    static func stopShared() {
        start.withLock { state in
            if case .done(.success(let cluster)) = state { cluster.stop() }
        }
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tacit-pg-\(UUID().uuidString.prefix(8))")
        Self.stopAbandoned()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "\(getpid())".write(to: directory.appendingPathComponent("owner.pid"), atomically: true, encoding: .utf8)
        try ClusterCommand.handOver(directory)
        let output = directory.appendingPathComponent("commands.log")
        try ClusterCommand.run("initdb", ["-D", directory.appendingPathComponent("data").path, "-U", user,
                                          "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                                          "--no-instructions"], output: output)
        port = try Self.start(directory, output: output)
        admin = PostgresPool(conninfo: "postgres://\(user)@127.0.0.1:\(port)/postgres", size: 2)
        try ClusterCommand.run("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, Self.sharedDatabase],
                               output: output)
        schemaAdmin = PostgresPool(conninfo: "postgres://\(user)@127.0.0.1:\(port)/\(Self.sharedDatabase)", size: 2)
    }

    /// Starts the server on a free port; returns the port. A port taken between the check
    /// and the start (another test's listener) costs a retry on another.
    private static func start(_ directory: URL, output: URL) throws -> Int {
        var lastError: (any Error)?
        for _ in 0..<3 {
            let port = try freePort()
            do {
                try ClusterCommand.run("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-l",
                                                  directory.appendingPathComponent("log").path, "-w", "-t", "60", "-o",
                                                  "-p \(port) -k \(directory.path) "
                                                  + "-c listen_addresses=127.0.0.1 -c fsync=off "
                                                  + "-c synchronous_commit=off -c full_page_writes=off "
                                                  + "-c max_connections=400", "start"], output: output)
                return port
            } catch {
                lastError = error
            }
        }
        throw lastError ?? ClusterCommand.Failure(description: "PostgreSQL did not start")
    }

    /// The URL of `database` on this cluster.
    public func url(database: String) -> String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }

    /// Creates an empty database and returns its URL.
    public func makeDatabase() async throws -> String {
        let number = created.withLock { count -> Int in
            count += 1
            return count
        }
        let name = "test_\(getpid())_\(number)"
        // A database name is an identifier, not a value: it is made here from numbers only.
        try await admin.withConnection { db in try db.script("CREATE DATABASE \(name)") }
        return url(database: name)
    }

    /// Creates an empty schema in the shared test database and returns a URL whose
    /// connections use it (`search_path`): as separate as a database for the store, and
    /// made in a millisecond where `CREATE DATABASE` copies a template.
    public func makeSchema() async throws -> String {
        let number = created.withLock { count -> Int in
            count += 1
            return count
        }
        let name = "test_\(getpid())_\(number)"
        // A schema name is an identifier, not a value: it is made here from numbers only.
        try await schemaAdmin.withConnection { db in try db.script("CREATE SCHEMA \(name)") }
        return url(database: Self.sharedDatabase) + "?options=-c%20search_path%3D\(name)"
    }

    /// Stops the server and removes its directory.
    public func stop() {
        try? ClusterCommand.run("pg_ctl", ["-D", directory.appendingPathComponent("data").path,
                                           "-m", "fast", "-w", "stop"],
                                output: directory.appendingPathComponent("commands.log"))
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the clusters of test processes that ended without stopping theirs (a crash
    /// skips `atexit`), so a crashed run leaves no server behind past the next run.
    static func stopAbandoned() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("tacit-pg-") {
            let directory = temporary.appendingPathComponent(name)
            guard let text = try? String(contentsOf: directory.appendingPathComponent("owner.pid"), encoding: .utf8),
                  let owner = pid_t(text), kill(owner, 0) != 0, errno == ESRCH else { continue }
            try? ClusterCommand.run("pg_ctl", ["-D", directory.appendingPathComponent("data").path,
                                               "-m", "fast", "-w", "stop"],
                                    output: URL(fileURLWithPath: "/dev/null"))
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A loopback port nothing listens on right now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension PostgresCluster {
    /// A migrated store in a fresh schema of the shared cluster, and its URL (for a second
    /// store, standing in for another instance, on the same tables).
    public static func makeStore(poolSize: Int = 4) async throws -> (store: PostgresVerificationStore, url: String) {
        let url = try await shared().makeSchema()
        let store = PostgresVerificationStore(url: url, poolSize: poolSize)
        try await store.migrate()
        return (store, url)
    }
}
