import Foundation
import TacitCLI

// The process's own environment, streams and signals; everything else is TacitCLI's.
let context = CommandContext(
    environment: ProcessInfo.processInfo.environment,
    output: StandardStream.output,
    error: StandardStream.error,
    input: .standardInput(),
    interruption: { await Signals.wait(for: [SIGINT, SIGTERM]) })
let status = await TacitCommandLine.run(Array(CommandLine.arguments.dropFirst()), context: context)
// Output is flushed, then the process ends without running exit-time teardown: the
// networking and dispatch threads a command leaves behind can still be running, and
// tearing the runtime down under them can trap.
fflush(nil)
_exit(status)
