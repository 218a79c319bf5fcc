import TacitCore

extension SecurityLayer {
    /// The device-event guard, counting in the same shared counters as every other limit
    /// and reporting its refusals in the same metrics.
    func deviceEventGuard(limits: TimelineLimits, secrets: ServerSecrets, clock: any TacitClock) -> DeviceEventGuard {
        DeviceEventGuard(limiter: RateLimiter(store: rateLimitStore, fields: secrets.fieldProtection),
                         limits: limits, clock: clock, metrics: metrics)
    }
}
