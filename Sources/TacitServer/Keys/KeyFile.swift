import Foundation
import TacitCrypto

/// The key file: master keys outside the database, one per line as 64 hex digits,
/// newest first; `#` lines are comments. It is created with mode 0600 in one step (no
/// moment where it exists with wider permissions), rewritten by renaming a new 0600 file
/// over it, and refused when group or others may read it.
public enum KeyFile {
    static let header = """
        # Tacit master keys, newest first. The newest seals new data; older ones still open
        # what they sealed until `tacit keys reseal` moves it to the newest. Keep this file
        # mode 0600 and apart from copies of the database.
        """

    /// The keys in the file at `path`; nil when there is no file.
    public static func read(_ path: String) throws(KeySetupError) -> [MasterKey]? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path, String(cString: strerror(errno)))
        }
        guard info.st_mode & 0o077 == 0 else { throw .exposed(path) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable(path, "it can't be read")
        }
        return try parse(text, path: path)
    }

    static func parse(_ text: String, path: String) throws(KeySetupError) -> [MasterKey] {
        var keys: [MasterKey] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            guard let bytes = Hex.decode(trimmed), bytes.count == 32 else { throw .malformed(path, line: number + 1) }
            keys.append(MasterKey(bytes))
        }
        guard !keys.isEmpty else { throw .unreadable(path, "it holds no key") }
        return keys
    }

    static func render(_ keys: [MasterKey]) -> String {
        header + "\n" + keys.map { Hex.encode($0.bytes) }.joined(separator: "\n") + "\n"
    }

    /// Creates the file with `keys`; false when it exists already (another instance won
    /// the race, and its keys are the ones to read). The keys are written to a new 0600
    /// file first and then linked in place, so the file never exists half written.
    public static func create(_ path: String, keys: [MasterKey]) throws(KeySetupError) -> Bool {
        let temporary = try writeNew(keys, beside: path)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw .unreadable(path, "it can't be created (\(String(cString: strerror(errno))))")
        }
        return true
    }

    /// Replaces the file's keys with `keys`, atomically: a reader sees the old file or the new one.
    public static func replace(_ path: String, keys: [MasterKey]) throws(KeySetupError) {
        let temporary = try writeNew(keys, beside: path)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .unreadable(path, "the new copy can't replace it (\(String(cString: strerror(errno))))")
        }
    }

    /// A new file beside `path` holding `keys`, created with mode 0600 (a umask can only
    /// narrow that) and synced; returns its path.
    private static func writeNew(_ keys: [MasterKey], beside path: String) throws(KeySetupError) -> String {
        let temporary = path + ".new-" + Hex.encode(SecureRandom.bytes(6))
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unreadable(path, "a file can't be created beside it (\(String(cString: strerror(errno))))")
        }
        do {
            try write(render(keys), to: descriptor, path: path)
        } catch {
            unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Writes, syncs and closes.
    private static func write(_ text: String, to descriptor: Int32, path: String) throws(KeySetupError) {
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw .unreadable(path, "it can't be written")
        }
    }
}
