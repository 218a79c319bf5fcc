import Foundation
import TacitServer

/// How long a SIGTERM'd instance announces its drain before it stops listening
/// (`TACIT_DRAIN_MS` or a config line): behind a load balancer, long enough for its
/// health check on `/readyz` to fail (HAProxy's `inter 500ms fall 2` in deploy/haproxy.cfg
/// needs about a second).
extension ServerSettings {
    static func applyDrain(_ configuration: inout ServerConfiguration, _ setting: (String) -> String?) throws {
        guard let value = setting("DRAIN_MS") else { return }
        guard let ms = Int(value), (0...60_000).contains(ms) else {
            throw Arguments.UsageError(
                message: "TACIT_DRAIN_MS must be a whole number of milliseconds from 0 to 60000")
        }
        configuration.drainDelay = TimeInterval(ms) / 1000
    }
}
