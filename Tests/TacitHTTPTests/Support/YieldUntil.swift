/// Yields until `condition` holds, for a state another thread reaches without telling anyone
/// (a libmicrohttpd thread suspending a connection, a shutdown under way); false when it does
/// not hold within `limit`, a bound for a broken server only.
func yieldUntil(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        await Task.yield()
    }
    return true
}
