import Foundation
import TacitCore
import TacitOperator

extension TacitApplication {
    /// The in-process virtual operator of `--dev`, mounted on this server's routes.
    func makeOperator(clock: any TacitClock) -> VirtualOperator? {
        guard configuration.dev else { return nil }
        var settings = OperatorConfiguration(signingKey: operatorKey(nil))
        settings.latencyMilliseconds = configuration.operatorLatencyMilliseconds
        return VirtualOperator(configuration: settings, clock: clock)
    }

    /// The key operator answers are signed with: from the configured shared secret, or
    /// the in-process operator's own, or (nothing to share yet) a fresh random one.
    func operatorKey(_ network: VirtualOperator?) -> [UInt8] {
        if let secret = configuration.operatorSecret, !secret.isEmpty { return OperatorConfiguration.key(fromSecret: secret) }
        return network?.configuration.signingKey ?? OperatorConfiguration().signingKey
    }
}
