import Foundation
import Glibc

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which its header declares
/// only for `_GNU_SOURCE` builds, so Swift does not import it.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// Runs PostgreSQL's server programs for `PostgresCluster`, through `posix_spawn` (the
/// parallel tests open and close descriptors all the time, which Foundation's `Process`
/// doesn't survive), with the output in a file of the cluster's directory. The programs
/// refuse to run as root, so as root they run as the `postgres` user through `runuser`,
/// over a directory handed to that user first.
enum ClusterCommand {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static var asRoot: Bool { geteuid() == 0 }

    /// Where `name` is: on PATH, else Debian's versioned directory.
    static func path(_ name: String) -> String {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/lib/postgresql/15/bin"]
        for directory in paths where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
            return directory + "/" + name
        }
        return "/usr/lib/postgresql/15/bin/" + name
    }

    /// Gives `directory` to the `postgres` user when running as root.
    static func handOver(_ directory: URL) throws {
        guard asRoot else { return }
        try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
    }

    /// Runs the program to its end, its output going to `output`; throws with the output's
    /// end when it fails.
    static func run(_ name: String, _ arguments: [String], output: URL) throws {
        let argv = asRoot
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", path(name)] + arguments
            : [path(name)] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        _ = spawnActionsCloseFrom(&actions, 3)
        let cArguments = argv.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + environment).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, argv[0], &actions, nil, cArguments, environment)
        guard spawned == 0 else { throw Failure(description: "\(name) could not start (errno \(spawned))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw Failure(description: "\(name) failed (status \(status)): \(text.suffix(2000))")
        }
    }
}
