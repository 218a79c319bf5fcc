import Foundation
import Testing
import TacitCrypto
import TacitStoreSQLite
import TacitTesting

/// What the key tests share: a directory of their own, the built binary run with a bound
/// on its time (off the cooperative pool, see `offThePool`), and every value a database
/// file holds.
enum KeyFixtures {
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `tacit` with only `environment` (and PATH). One still running after `limit`
    /// seconds is terminated, so a server that should have refused to start fails its test
    /// instead of hanging it.
    static func tacit(_ arguments: [String], environment: [String: String] = [:], limit: Double = 20) async throws -> Run {
        try await offThePool { try run(arguments, environment: environment, limit: limit) }
    }

    private static func run(_ arguments: [String], environment: [String: String], limit: Double) throws -> Run {
        let process = Subprocess()
        process.executableURL = SecurityKeysCommandTests.binary
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let bound = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: bound)
        defer { bound.cancel() }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: output, as: UTF8.self), err: String(decoding: error, as: UTF8.self))
    }

    /// Runs `tacit serve` until it says it listens (then stops it) or exits on its own;
    /// bounded like `tacit(_:)`. Its output is what it printed until then.
    static func serveUntilListening(_ arguments: [String], limit: Double = 20) async throws -> Run {
        try await offThePool { try runUntilListening(arguments, limit: limit) }
    }

    private static func runUntilListening(_ arguments: [String], limit: Double) throws -> Run {
        let process = Subprocess()
        process.executableURL = SecurityKeysCommandTests.binary
        process.arguments = ["serve"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let bound = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: bound)
        defer { bound.cancel() }
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("Tacit is listening") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        process.terminate()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: seen, as: UTF8.self), err: String(decoding: error, as: UTF8.self))
    }

    /// Copies the database file with its WAL (what a leaked copy of the live files holds)
    /// into `directory`, and nothing else; returns the copy's path.
    static func copyDatabase(_ path: String, into directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent("copy.db").path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        return copy
    }

    /// Every text and blob in every column of every table, as bytes.
    static func storedValues(_ path: String) throws -> [[UInt8]] {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        var values: [[UInt8]] = []
        for table in try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            let name = try table.string("name")
            for row in try connection.query(SQL(stringLiteral: "SELECT * FROM \"\(name)\"")) {
                for value in row.values {
                    switch value {
                    case .text(let text): values.append(Array(text.utf8))
                    case .blob(let bytes): values.append(bytes)
                    default: break
                    }
                }
            }
        }
        return values
    }

    /// One column of every row of `table`, as bytes.
    static func column(_ column: String, of table: String, in path: String) throws -> [[UInt8]] {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        return try connection.query(SQL(stringLiteral: "SELECT \(column) AS v FROM \(table)")).map { try $0.blob("v") }
    }

    /// The keys in a key file, newest first, read as text (not through the server's reader).
    static func keys(in path: String) throws -> [[UInt8]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.compactMap { Hex.decode(String($0)) }
    }

    /// The file's permission bits.
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<(start + needle.count)].elementsEqual(needle) }
    }

    /// The runs of ASCII digits in these bytes, each as text.
    var digitRuns: [String] {
        split { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
