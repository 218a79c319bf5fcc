import Foundation

/// What a command reads and writes besides its arguments: the environment its `TACIT_*`
/// settings come from, standard output and error, the lines `tacit verify` reads, and the
/// signal to stop. The executable hands in the process's own; a test hands in buffers.
public struct CommandContext: Sendable {
    /// The variables `TACIT_*` settings (and `NO_COLOR`) are read from.
    public var environment: [String: String]
    /// Standard output: what a command prints.
    public var output: any TextOutput
    /// Standard error: problems, and `tacit verify --json`'s prompts.
    public var error: any TextOutput
    /// Standard input: the codes `tacit verify` asks for.
    public var input: LineBuffer
    /// Returns when the command is asked to stop (SIGINT or SIGTERM for the executable):
    /// `serve` drains and exits 0, `verify` cancels its verification and exits 130. It also
    /// returns when the waiting task is cancelled.
    public var interruption: @Sendable () async -> Void

    /// A context; by default standard input is empty and nothing ever asks to stop.
    public init(environment: [String: String], output: any TextOutput, error: any TextOutput,
                input: LineBuffer = .ended, interruption: @escaping @Sendable () async -> Void = CommandContext.never) {
        self.environment = environment
        self.output = output
        self.error = error
        self.input = input
        self.interruption = interruption
    }

    /// An interruption that never comes: waits until the waiting task is cancelled.
    public static let never: @Sendable () async -> Void = {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// Whether output is coloured: only on a terminal, and not when `NO_COLOR` is set.
    var color: Bool {
        output.isTerminal && environment["NO_COLOR"] == nil
    }

    /// Writes `text` and a newline to standard output.
    func print(_ text: String = "") {
        output.write(text + "\n")
    }

    /// Writes `message` and a newline to standard error.
    func printError(_ message: String) {
        error.write(message + "\n")
    }

    /// Prints the problem and the usage to stderr; exit status 2.
    func usageError(_ message: String, usage: String) -> Int32 {
        printError("tacit: \(message)\n\n\(usage)")
        return 2
    }
}
