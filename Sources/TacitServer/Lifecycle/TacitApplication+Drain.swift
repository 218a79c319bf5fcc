import Foundation

extension TacitApplication {
    /// Starts a drain without stopping anything: `/readyz` answers 503 from now on while
    /// every request is still served. An instance behind a load balancer calls this on
    /// SIGTERM and waits a moment before cancelling `run()`, so the balancer's health check
    /// takes it out of rotation while it still answers; cancelling then closes the
    /// listener and lets the requests in flight finish.
    public func beginDrain() {
        draining.store(true, ordering: .relaxed)
        isReady.store(false, ordering: .relaxed)
    }
}
