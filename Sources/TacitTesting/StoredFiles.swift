import Foundation
import TacitCrypto
import TacitStoreSQLite

/// What tests read back from disk, outside the product's own readers: every value a
/// database file holds, one column of a table, a key file's keys, a file's mode. The
/// secret scans go through these, so they see exactly what a copy of the files would.
public enum StoredFiles {
    /// Every text and blob in every column of every table, as bytes.
    public static func storedValues(_ path: String) throws -> [[UInt8]] {
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
    public static func column(_ column: String, of table: String, in path: String) throws -> [[UInt8]] {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        return try connection.query(SQL(stringLiteral: "SELECT \(column) AS v FROM \(table)")).map { try $0.blob("v") }
    }

    /// The keys in a key file, newest first, read as text (not through the server's reader).
    public static func keys(in path: String) throws -> [[UInt8]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.compactMap { Hex.decode(String($0)) }
    }

    /// The file's permission bits.
    public static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes.
    public func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { start in
            self[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
