import Foundation

/// A fresh directory for one test's database file, removed when released.
final class TemporaryDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("test.db").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tacit-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
