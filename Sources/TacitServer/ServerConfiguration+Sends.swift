import Foundation

extension ServerConfiguration {
    /// 10 ms: the dev inbox, and an SMSC or provider on the same network, answer within it,
    /// so the caller sees the send's outcome, while a provider on the internet (100 ms and
    /// more) holds a start for no longer than that: every start behind it pays the whole
    /// bound. At 25 ms a 300 ms provider put create p99 at half load over 50 ms on two
    /// cores (Benchmarks/messaging.py).
    public static let defaultSendWait: TimeInterval = 0.010
}
