import Foundation
import TacitKit

/// The end of a `tacit verify` run: the last events up to the summary, the final
/// tracker, then either the verdict line or the `--json` object, and the exit status.
struct VerifyOutcome {
    let session: VerifySession

    /// The `--json` result object.
    struct Result: Encodable {
        struct Step: Encodable {
            var channel: String
            var status: String
        }

        var requestId: String
        var status: String
        /// The channel that verified the number, else the last one tried.
        var channel: String?
        var workflow: [Step]
        var events: Int

        enum CodingKeys: String, CodingKey { case requestId = "request_id", status, channel, workflow, events }
    }

    func finish(_ final: VerificationFlow.State?, ranOutOfInput: Bool) async -> Int32 {
        let display = session.display
        guard let id = display.requestId else {
            session.context.printError("tacit: \(startFailure(display.snapshot.startError))")
            return 1
        }
        await drainEvents(id)
        let verification = (try? await session.client.state(id)) ?? display.snapshot.verification
        if let verification { display.saw(verification) }
        if session.options.json, let verification { printJSON(verification) }
        let verified = verification?.status == .completed
        if verified {
            let channel = verification.flatMap(Self.channel).map(VerifyTracker.title) ?? "the server"
            display.line(display.paint("✓ \(session.options.maskedNumber) is verified (\(channel)).", "1;32"))
            return 0
        }
        session.context.printError("tacit: \(reason(verification?.status, final: final, ranOutOfInput: ranOutOfInput))")
        return 1
    }

    /// Shows the events that arrived after the flow ended, up to the summary, for a short while.
    private func drainEvents(_ id: String) async {
        let client = session.client
        let display = session.display
        let after = display.snapshot.lastSeq
        guard !display.snapshot.sawSummary else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do { for try await event in client.eventStream(id, after: after) { display.show(event) } } catch {}
            }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
    }

    private func printJSON(_ verification: Verification) {
        let result = Result(
            requestId: verification.requestId, status: verification.status.rawValue,
            channel: Self.channel(verification)?.rawValue,
            workflow: verification.workflow.map {
                Result.Step(channel: $0.channel.rawValue, status: $0.status.rawValue)
            },
            events: session.display.snapshot.lastSeq)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(result) else { return }
        session.context.print(String(decoding: data, as: UTF8.self))
    }

    static func channel(_ verification: Verification) -> Channel? {
        verification.workflow.first { $0.status == .completed }?.channel
            ?? verification.workflow.last { $0.status != .unused }?.channel
            ?? verification.channel
    }

    private func reason(_ status: VerificationStatus?, final: VerificationFlow.State?, ranOutOfInput: Bool) -> String {
        if ranOutOfInput { return "no code was entered (input ended); the verification was cancelled" }
        switch status {
        case .failed?: return "verification failed: every channel failed or too many wrong codes"
        case .expired?: return "the verification expired before it was completed"
        case .cancelled?: return "the verification was cancelled"
        default:
            if case .failed(.unreachable)? = final { return "the server stopped answering" }
            return "the verification did not complete"
        }
    }

    private func startFailure(_ error: TacitError?) -> String {
        guard let error, error.status != 0 else {
            return "the server at \(session.options.server.absoluteString) could not be reached"
        }
        let detail = error.detail.map { ": \($0)" } ?? ""
        return "the server refused to start the verification (\(error.type))\(detail)"
    }
}
