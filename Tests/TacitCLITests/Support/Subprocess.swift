import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its header
/// declares only for `_GNU_SOURCE` builds, so Swift does not import it.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// The part of Foundation's `Process` the CLI tests use, over `posix_spawn`.
/// Foundation's `Process.run()` on Linux crashes now and then when other threads open
/// and close descriptors meanwhile (as the parallel server tests do); this spawns
/// with an explicit environment and closes every inherited descriptor in the child.
final class Subprocess: @unchecked Sendable {
    // @unchecked: configured before `run()` on one thread; afterwards only the pid and
    // the exit status change, under `lock`.
    var executableURL: URL?
    var arguments: [String] = []
    var environment: [String: String]?
    var standardInput: Pipe?
    var standardOutput: Pipe?
    var standardError: Pipe?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?

    /// The environment the tests started with, read once.
    private static let inherited = ProcessInfo.processInfo.environment

    var processIdentifier: Int32 { lock.withLock { pid } }
    var isRunning: Bool { lock.withLock { pid != 0 && status == nil } }

    func run() throws {
        guard let path = executableURL?.path else { throw CocoaError(.fileNoSuchFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (pipe, target) in [(standardInput, 0), (standardOutput, 1), (standardError, 2)] {
            guard let pipe else { continue }
            let end = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, Int32(target))
        }
        _ = spawnActionsCloseFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? Self.inherited).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, nil, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        lock.withLock { pid = child }
        // The parent keeps only its own ends, so readers see end-of-file when the child exits.
        try standardInput?.fileHandleForReading.close()
        try standardOutput?.fileHandleForWriting.close()
        try standardError?.fileHandleForWriting.close()
    }

    func waitUntilExit() {
        let child = processIdentifier
        guard child != 0, lock.withLock({ status == nil }) else { return }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
        // Exited: its exit code; killed by a signal: the signal number (as Foundation reports).
        let code = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
        lock.withLock { status = code }
    }

    var terminationStatus: Int32 { lock.withLock { status ?? 0 } }

    func terminate() {
        let child = processIdentifier
        if child != 0, isRunning { kill(child, SIGTERM) }
    }
}
