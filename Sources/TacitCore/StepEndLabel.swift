/// How a step that did not complete is labelled on the timeline (`sms:timed_out`).
/// The raw values are the one table of these suffixes; the SDK and the console keep
/// copies that their tests compare with it.
public enum StepEndLabel: String, Sendable, CaseIterable {
    case timedOut = "timed_out"
    case failed
    case rejected
    case skipped
    case cancelled
}
