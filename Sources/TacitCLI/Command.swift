/// One `tacit` subcommand: its name, its usage, the options it takes, and what it does
/// with them once `TacitCommandLine` has parsed them.
protocol Command: Sendable {
    /// The word after `tacit` that names it.
    static var name: String { get }
    /// Printed by `--help`, and on stderr with a usage error.
    static var usage: String { get }
    /// Options that take a value.
    static var valued: Set<String> { get }
    /// Options that are switches.
    static var flags: Set<String> { get }
    /// Runs with the parsed arguments; returns the exit status. A command line that doesn't
    /// fit throws `Arguments.UsageError`; every other problem the command reports itself.
    static func run(_ arguments: Arguments, _ context: CommandContext) async throws -> Int32
}
