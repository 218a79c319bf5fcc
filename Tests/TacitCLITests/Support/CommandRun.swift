import TacitCLI

/// What one `tacit` command did: its exit status and what it printed.
struct CommandRun: Sendable {
    var status: Int32
    var out: String
    var err: String

    /// Runs `tacit ARGUMENTS` in process with only `environment`, to its end.
    static func of(_ arguments: [String], environment: [String: String] = [:],
                   input: LineBuffer = .ended) async -> CommandRun {
        let out = Captured(), err = Captured()
        let context = CommandContext(environment: environment, output: out, error: err, input: input)
        let status = await TacitCommandLine.run(arguments, context: context)
        return CommandRun(status: status, out: out.text, err: err.text)
    }
}
