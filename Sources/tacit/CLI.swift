import Foundation

/// Output helpers shared by the subcommands.
enum CLI {
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Flushes standard output so a caller reading a pipe sees lines at once.
    static func flush() {
        fflush(nil)
    }

    /// Prints the problem and the usage to stderr; exit status 2.
    static func usageError(_ message: String, usage: String) -> Int32 {
        printError("tacit: \(message)\n\n\(usage)")
        return 2
    }
}
