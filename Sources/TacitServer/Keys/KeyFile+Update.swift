import Foundation

extension KeyFile {
    /// Changes the file's keys with `change`, holding an exclusive lock on a lock file
    /// beside it from the read to the rename, so two changes made at once (two instances
    /// moving an old secret into the file, a rotation meanwhile) both land: without it each
    /// would read the same keys and the later rename would drop the other's key. `change`
    /// gets the keys (none when the file is missing) and returns the new ones, or nil to
    /// leave the file as it is. Returns the keys the file holds afterwards.
    @discardableResult
    public static func update(_ path: String, _ change: ([MasterKey]) throws -> [MasterKey]?) throws -> [MasterKey] {
        let lock = try lockBeside(path)
        defer { close(lock) }
        let existing = try read(path) ?? []
        guard let changed = try change(existing), changed != existing else { return existing }
        if existing.isEmpty, try create(path, keys: changed) { return changed }
        try replace(path, keys: changed)
        return changed
    }

    /// Opens (creating it 0600) and locks `path.lock`; the lock goes with the descriptor.
    /// The lock file stays: removing it would let a waiter lock a file no one else opens.
    private static func lockBeside(_ path: String) throws(KeySetupError) -> Int32 {
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unreadable(path, "its lock file can't be opened (\(String(cString: strerror(errno))))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw .unreadable(path, "its lock file can't be locked (\(String(cString: strerror(errno))))")
            }
        }
        return descriptor
    }
}
