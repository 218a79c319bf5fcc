/// Spaces a sweep's batches so that deleting a backlog shares the store's one writer instead
/// of taking it over. After each batch it rests `rest` times as long as the batch took,
/// measured on the continuous clock: what is shared is the writer's real time, which the
/// injected clock (a ManualClock in tests) doesn't measure.
///
/// A batch's time includes its wait behind the writes queued before it, so under load
/// the rests grow and the sweep gives way; on an idle server it runs at nearly full speed.
struct BatchPacer: Sendable {
    /// Rests of 9 batch-times keep a sweep to about a tenth of the writer's time, so creates
    /// run within about 10 % of their rate without a sweep even when the writer is what
    /// bounds them (see docs/performance.md, "Retention sweep"). A backlog of 100,000 rows
    /// then takes about a minute; a day's finished verifications, swept every 10 minutes,
    /// are a batch or two a round.
    static let defaultRest = 9.0

    let rest: Double
    private var last: Duration = .zero

    init(rest: Double) {
        self.rest = rest
    }

    /// Runs `body`, keeping how long it took.
    mutating func timed<T>(_ body: () async throws -> T) async rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { last = clock.now - start }
        return try await body()
    }

    /// Rests after the last batch; with no rest, still lets waiting tasks run first.
    func rest() async {
        guard rest > 0 else { return await Task.yield() }
        // Cancellation ends the rest early; the caller's loop then stops.
        try? await Task.sleep(for: last * rest)
    }
}
