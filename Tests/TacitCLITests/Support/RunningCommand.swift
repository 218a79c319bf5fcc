import Foundation
import TacitCLI
import TacitTesting
import Testing

/// A `tacit` command running in process while the test talks to it: types lines into its
/// input, reads its output as it comes, and interrupts it as Ctrl-C or SIGTERM would.
final class RunningCommand: Sendable {
    let out = Captured()
    let err = Captured()
    let input = LineBuffer()
    private let stop: AsyncStream<Void>.Continuation
    private let task: Task<Int32, Never>

    init(_ arguments: [String], environment: [String: String] = [:]) {
        let (stops, stop) = AsyncStream<Void>.makeStream()
        let context = CommandContext(environment: environment, output: out, error: err, input: input) {
            for await _ in stops { return }
        }
        self.stop = stop
        task = Task { [out, err] in
            let status = await TacitCommandLine.run(arguments, context: context)
            out.close()
            err.close()
            return status
        }
    }

    /// Its output once it shows `marker`; fails the test if the command ended without it.
    @discardableResult
    func output(showing marker: String, within seconds: Double = 30) async throws -> String {
        let out = out
        let seen = try await within(seconds) { await out.text(containing: marker) }
        return try #require(seen, "the command ended without printing \(marker): \(err.text)")
    }

    /// Asks it to stop, as the executable's SIGINT or SIGTERM does.
    func interrupt() {
        stop.yield()
    }

    /// Waits for it to end.
    func finish() async -> CommandRun {
        let status = await task.value
        return CommandRun(status: status, out: out.text, err: err.text)
    }

    /// Runs `tacit serve ARGUMENTS` in process until it listens, hands `body` the URL it
    /// announced, then stops it as SIGTERM does and returns `body`'s result with the run.
    static func serving<T>(_ arguments: [String], environment: [String: String] = [:],
                          _ body: (String) async throws -> T) async throws -> (T, CommandRun) {
        let server = RunningCommand(["serve"] + arguments, environment: environment)
        let result: T
        do {
            let announced = try await server.output(showing: "Console:")
            let base = announced.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http") }.map(String.init)
            result = try await body(try #require(base))
        } catch {
            server.interrupt()
            _ = await server.finish()
            throw error
        }
        server.interrupt()
        return (result, await server.finish())
    }
}
