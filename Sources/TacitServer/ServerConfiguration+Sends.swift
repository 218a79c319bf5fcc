import Foundation

extension ServerConfiguration {
    /// 25 ms: the dev inbox answers well within it, so the caller sees the send's outcome,
    /// while a provider on the internet (100 ms and more) never holds a start: behind a
    /// provider taking 300 ms, create p99 at half load stays under 50 ms (Benchmarks/messaging.py).
    public static let defaultSendWait: TimeInterval = 0.025
}
