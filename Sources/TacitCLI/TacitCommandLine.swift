/// `tacit COMMAND [OPTIONS]`: finds the command, answers `--help`, parses the options and
/// runs it. Usage errors, wherever they are found, print the command's usage to stderr and
/// exit 2.
public enum TacitCommandLine {
    static let commands: [any Command.Type] = [
        ServeCommand.self, VerifyCommand.self, TimelineCommand.self, KeysCommand.self, AppsCommand.self,
        FraudCommand.self,
    ]

    static let usage = """
        Usage: tacit COMMAND [OPTIONS]

        Commands:
          serve       run the verification server
          verify      verify a number end to end, as app and device
          timeline    print, follow, export or replay a verification's timeline
          keys        create, list and revoke API keys
          apps        create, list, change and revoke applications
          fraud       list and lift an application's automatic prefix blocks, backtest a level

        Run `tacit COMMAND --help` for a command's options.
        """

    /// Runs the command `arguments` name (the words after `tacit`) and returns its exit
    /// status: 0 on success, 1 when it failed, 2 for a command line or setting it can't use.
    public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        guard let name = arguments.first else { return context.usageError("no command given", usage: usage) }
        if ["--help", "-h", "help"].contains(name) {
            context.print(usage)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            return context.usageError("unknown command \(name)", usage: usage)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") {
            context.print(command.usage)
            return 0
        }
        do {
            let parsed = try Arguments(rest, valued: command.valued, flags: command.flags)
            return try await command.run(parsed, context)
        } catch let error as Arguments.UsageError {
            return context.usageError(error.message, usage: command.usage)
        } catch {
            return context.usageError("\(error)", usage: command.usage)
        }
    }
}
