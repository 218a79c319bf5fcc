import Foundation
import TacitCrypto
import TacitStoreSQLite

/// What the command tests read back from disk: a directory of their own, and every value a
/// database file or key file holds.
enum StoreFiles {
    /// A new directory for one test, in memory where the machine has a tmpfs: each command
    /// migrates a new file, and its fsyncs would otherwise queue behind (and hold up) every
    /// other suite's disk writes.
    static func directory() throws -> URL {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let parent = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let directory = parent.appendingPathComponent("tacit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
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
}
