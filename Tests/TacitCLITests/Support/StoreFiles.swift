import Foundation

/// A directory of the command tests' own (what they read back from disk is `StoredFiles`).
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
}

