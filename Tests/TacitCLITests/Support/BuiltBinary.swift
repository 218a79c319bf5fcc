import Foundation
import TacitTesting
import Testing

/// The built `tacit` executable, spawned for what only a process shows: its exit status,
/// its signals, its start-up and drain.
enum BuiltBinary {
    /// Beside the test bundle in the build directory (or `TACIT_BIN`).
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["TACIT_BIN"] { return path }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("tacit").path
    }

    /// Starts `tacit ARGUMENTS` with pipes for its standard streams and only `environment`
    /// (and PATH).
    static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Subprocess {
        try #require(FileManager.default.isExecutableFile(atPath: path), "build the tacit binary first (swift build)")
        let process = Subprocess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardInput = Pipe()
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Runs `tacit ARGUMENTS` to its end, off the cooperative pool (see `offThePool`).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandRun {
        let process = try launch(arguments, environment: environment)
        try process.standardInput?.fileHandleForWriting.close()
        return try await offThePool {
            let out = process.standardOutput!.fileHandleForReading.readDataToEndOfFile()
            let err = process.standardError!.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return CommandRun(status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
                              err: String(decoding: err, as: UTF8.self))
        }
    }

    /// Reads the process's stdout until `marker` shows up (or the output ends).
    static func read(_ process: Subprocess, until marker: String) async throws -> String {
        let handle = process.standardOutput!.fileHandleForReading
        let seen = try await offThePool { () -> String in
            var seen = ""
            while !seen.contains(marker) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            return seen
        }
        try #require(seen.contains(marker), "tacit never printed \(marker)")
        return seen
    }
}
