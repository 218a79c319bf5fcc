import Foundation
import TacitServer

/// Restarting the application inside one test, as a deploy does: the first application
/// stops (drained, as by SIGTERM) and a new one starts on the same store and clock.
extension TestApplication {
    /// What the test asks of the task that runs the application.
    enum Command: Sendable {
        case stop(CheckedContinuation<Void, Never>)
        case start(CheckedContinuation<Void, Never>)
    }

    /// The commands' channel, made once so the test and the running task share it.
    struct Supervisor: Sendable {
        let commands: AsyncStream<Command>
        let send: AsyncStream<Command>.Continuation
        init() { (commands, send) = AsyncStream.makeStream() }
    }

    /// Stops the application, runs `whileStopped` (move the clock, change a fake), then
    /// starts a new application on the same store or SQLite file and waits until it is ready.
    public func restart(whileStopped: () async throws -> Void = {}) async throws {
        await withCheckedContinuation { supervisor.send.yield(.stop($0)) }
        try await whileStopped()
        await withCheckedContinuation { supervisor.send.yield(.start($0)) }
        _ = try await application.listening()
    }

    /// Runs the current application until told to stop, then waits to be told to start
    /// the next; returns when cancelled. Each application runs as a child task here, so
    /// cancelling the test's scope drains whichever one is running.
    func supervise() async throws {
        var commands = supervisor.commands.makeAsyncIterator()
        while true {
            let application = self.application
            let serving: TacitApplication.Serving = mode == .inProcess ? .inProcess : .http
            let stop = try await withThrowingTaskGroup(of: Void.self) { group -> Command? in
                group.addTask { try await application.run(serving: serving) }
                let command = await commands.next()
                group.cancelAll()
                try await group.waitForAll()
                return command
            }
            guard case .stop(let stopped)? = stop else { return }
            stopped.resume()
            guard case .start(let starting)? = await commands.next() else { return }
            let next = Result { try makeApplication() }
            if case .success(let built) = next { install(built) }
            starting.resume()
            _ = try next.get()
        }
    }
}
