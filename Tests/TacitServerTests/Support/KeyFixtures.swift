import Foundation
import Testing
import TacitCrypto
import TacitStoreSQLite
import TacitTesting

/// What the key tests share: a directory of their own, and every value a database file holds.
enum KeyFixtures {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
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
        return (0...(count - needle.count)).contains { start in
            self[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// The runs of ASCII digits in these bytes, each as text.
    var digitRuns: [String] {
        split { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
