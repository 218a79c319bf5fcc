import Foundation
import Synchronization
import TacitKit

/// What `tacit verify` shows: a header, the channel tracker whenever a step changes,
/// each timeline event once as it arrives, prompts and the outcome. With `--json`
/// it prints nothing to stdout and only remembers what the result object needs.
final class VerifyDisplay: Sendable {
    struct Seen: Sendable {
        var verification: Verification?
        var lastSeq = 0
        var firstEventAt: Date?
        /// Why the start call was refused, when it was.
        var startError: TacitError?
        var shownSteps: [Verification.Step] = []
        /// The timeline's last event arrived: nothing more will come.
        var sawSummary = false
    }

    let json: Bool
    private let renderer: TimelineRenderer
    private let error: any TextOutput
    private let seen = Mutex(Seen())

    init(json: Bool, _ context: CommandContext) {
        self.json = json
        renderer = TimelineRenderer(color: context.color, output: context.output)
        error = context.error
    }

    var snapshot: Seen { seen.withLock { $0 } }
    var requestId: String? { snapshot.verification?.requestId }

    func header(_ options: VerifyOptions) {
        let path = options.wifi ? "Wi-Fi (127.0.0.1)" : options.interface.map { "cellular (\($0))" }
            ?? "cellular (\(options.cellularSource ?? "default route"))"
        line(paint("Verifying \(options.maskedNumber) at \(options.server.absoluteString), silent check over \(path)",
                   "1"))
    }

    /// Records a state read and redraws the tracker when a step changed.
    @discardableResult
    func saw(_ verification: Verification) -> Verification {
        let (first, changed) = seen.withLock { seen -> (Bool, Bool) in
            let first = seen.verification == nil
            if first { seen.verification = verification }
            guard seen.verification?.requestId == verification.requestId else { return (first, false) }
            seen.verification = verification
            guard !verification.workflow.isEmpty, verification.workflow != seen.shownSteps else {
                return (first, false)
            }
            seen.shownSteps = verification.workflow
            return (first, true)
        }
        if first {
            let id = verification.requestId
            line("  Request \(id) (follow it with `tacit timeline \(id) --follow`)")
        }
        if changed { line(VerifyTracker.render(verification.workflow, color: renderer.color)) }
        return verification
    }

    /// What the device's silent check ended with; the server's events say why.
    func silentResult(_ result: SilentAuthResult) {
        switch result {
        case .submitted: line("  Device: the carrier's code was submitted.")
        case .clientError(let name, let message):
            line(paint("  Device: the silent check stopped: \(name) (\(message)).", "33"))
        case .failed(let reason): line(paint("  Device: the code was not taken: \(reason.rawValue).", "33"))
        }
    }

    func startFailed(_ error: any Error) {
        let refusal = error as? TacitError ?? TacitError(type: "network-error", status: 0)
        seen.withLock { $0.startError = refusal }
    }

    /// Prints an event the first time it is seen.
    func show(_ event: TimelineEvent) {
        let start: Date? = seen.withLock { seen in
            guard event.seq > seen.lastSeq else { return nil }
            seen.lastSeq = event.seq
            seen.sawSummary = seen.sawSummary || event.label == "verification:summary"
            seen.firstEventAt = seen.firstEventAt ?? event.at
            return seen.firstEventAt
        }
        guard let start, !json else { return }
        renderer.print(event, since: start)
    }

    /// A prompt: on stdout normally, on stderr with `--json` so stdout stays one object.
    func prompt(_ text: String) {
        if json {
            error.write(text)
        } else {
            renderer.output.write(text)
        }
    }

    /// A progress line, shown only without `--json`.
    func line(_ text: String) {
        guard !json else { return }
        renderer.output.write(text + "\n")
    }

    func paint(_ text: String, _ code: String) -> String {
        renderer.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
