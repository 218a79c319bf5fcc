import Foundation
import TacitKit

/// `tacit verify NUMBER`: plays the app and the device against a server, shows the
/// channel tracker and the live timeline, and asks for a code when the flow falls back.
enum VerifyCommand: Command {
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

    static let name = "verify"
    static var valued: Set<String> { VerifyOptions.valued }
    static var flags: Set<String> { VerifyOptions.flags }

    static func run(_ arguments: Arguments, _ context: CommandContext) async throws -> Int32 {
        let options = try VerifyOptions(arguments, environment: context.environment)
        let session = VerifySession(options: options, context: context)
        return await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await session.run() }
            group.addTask {
                await context.interruption()
                // Ctrl-C: `run` answers 130 once it sees the interruption.
                if !Task.isCancelled { await session.interrupt() }
                return nil
            }
            var status: Int32 = 1
            for await result in group {
                guard let result else { continue }
                status = result
                group.cancelAll()
            }
            return status
        }
    }
}
