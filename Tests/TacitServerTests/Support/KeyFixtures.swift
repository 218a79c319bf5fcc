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
}


extension Array where Element == UInt8 {
    /// The runs of ASCII digits in these bytes, each as text.
    var digitRuns: [String] {
        split { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
