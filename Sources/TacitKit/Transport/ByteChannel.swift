#if os(Linux)
/// A connected byte stream with deadlines: a plain socket, or a TLS session over one.
/// The HTTP exchange is written against this, so only the set-up differs between
/// `http://` and `https://`.
protocol ByteChannel: AnyObject, Sendable {
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws
    /// Reads what is available; an empty array means the peer closed.
    func read(deadline: ContinuousClock.Instant) throws -> [UInt8]
}
#endif
