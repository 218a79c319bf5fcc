import Foundation

let commands = """
    Usage: tacit COMMAND [OPTIONS]

    Commands:
      serve       run the verification server
      verify      verify a number end to end, as app and device
      timeline    print, follow, export or replay a verification's timeline
      keys        create, list and revoke API keys
      apps        create, list, change and revoke applications

    Run `tacit COMMAND --help` for a command's options.
    """

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "serve":
    if arguments.contains("--help") { print(ServeCommand.usage); status = 0 }
    else { status = await ServeCommand.run(Array(arguments.dropFirst())) }
case "verify":
    if arguments.contains("--help") { print(VerifyCommand.usage); status = 0 }
    else { status = await VerifyCommand.run(Array(arguments.dropFirst())) }
case "timeline":
    if arguments.contains("--help") { print(TimelineCommand.usage); status = 0 }
    else { status = await TimelineCommand.run(Array(arguments.dropFirst())) }
case "keys":
    if arguments.contains("--help") { print(KeysCommand.usage); status = 0 }
    else { status = await KeysCommand.run(Array(arguments.dropFirst())) }
case "apps":
    if arguments.contains("--help") { print(AppsCommand.usage); status = 0 }
    else { status = await AppsCommand.run(Array(arguments.dropFirst())) }
case "--help", "-h", "help":
    print(commands)
    status = 0
case nil:
    status = CLI.usageError("no command given", usage: commands)
case let other?:
    status = CLI.usageError("unknown command \(other)", usage: commands)
}
// Output is flushed, then the process ends without running exit-time teardown: the
// networking and dispatch threads a command leaves behind can still be running, and
// tearing the runtime down under them can trap.
CLI.flush()
_exit(status)
