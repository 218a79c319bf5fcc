import Foundation
import TacitKit

/// `tacit verify NUMBER`: plays the app and the device against a server, shows the
/// channel tracker and the live timeline, and asks for a code when the flow falls back.
enum VerifyCommand {
    static let usage = """
        Usage: tacit verify NUMBER [--server URL] [--api-key KEY] [--workflow LIST]
                                   [--brand NAME] [--code-length N] [--timeout SECONDS]
                                   [--auto-code] [--wifi] [--cellular-source ADDR]
                                   [--interface IFACE] [--json]

        Starts a verification as the app, runs the silent check as the device over the
        cellular path, falls back to a code when it must, and shows every step live.
        Exits 0 only when the number is verified.

          --server URL           the Tacit server (default http://127.0.0.1:8080, or TACIT_SERVER)
          --api-key KEY          API key for servers not in dev mode (or TACIT_API_KEY)
          --workflow LIST        channels in order, e.g. silent_auth,sms,voice (the server's default)
          --brand NAME           the name in code messages
          --code-length N        digits in a code, 4-10
          --timeout SECONDS      seconds per channel, 15-900
          --auto-code            read codes from the dev handset inbox instead of the prompt
          --wifi                 make the silent check from 127.0.0.1, the non-cellular path
          --cellular-source ADDR the device's cellular source address (default 127.0.0.2)
          --interface IFACE      bind the silent check to a network interface, e.g. wwan0
          --json                 print one JSON result object and nothing else on stdout
        """

    static func run(_ arguments: [String]) async -> Int32 {
        let options: VerifyOptions
        do {
            options = try VerifyOptions(arguments, environment: ProcessInfo.processInfo.environment)
        } catch let error as Arguments.UsageError {
            return CLI.usageError(error.message, usage: usage)
        } catch {
            return CLI.usageError("\(error)", usage: usage)
        }
        let session = VerifySession(options: options)
        Task {
            await Signals.wait(for: [SIGINT, SIGTERM])
            await session.interrupt()
            // `run` answers 130 too once it sees the interruption; `_exit` ends the process
            // here in case it is stuck reading the terminal, without racing `exit`'s teardown.
            CLI.flush()
            _exit(130)
        }
        return await session.run()
    }
}
