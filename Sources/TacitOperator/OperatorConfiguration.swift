import Foundation
import TacitCrypto

/// How the virtual operator is set up.
public struct OperatorConfiguration: Sendable {
    /// Signs the gateway's answers. The Tacit server
    /// verifies answers with the same key (shared in-process, or configured).
    public var signingKey: [UInt8]
    /// Source addresses that count as the operator's cellular network.
    public var cellularRange = CellularRange.loopbackDefault
    /// Extra latency per hop (coverage check, gateway, CAMARA call), slept on the injected clock.
    public var latencyMilliseconds = 0
    /// The bearer key of an API consumer for server-to-server CAMARA calls (SIM Swap).
    public var apiKey = "op_dev_key"
    /// How long a gateway answer stays valid on its way back to Tacit.
    public var answerLifetime: TimeInterval = 30
    /// How long a network-based access token (Number Verification) stays valid; it answers one call.
    public var tokenLifetime: TimeInterval = 300
    /// How long an authorization code may wait to be redeemed; it is redeemed once.
    public var codeLifetime: TimeInterval = 60
    /// The API consumers registered with the operator's authorization server.
    public var clients: [OperatorClient] = []
    /// How far back the operator keeps SIM changes (CAMARA `monitoredPeriod`, days).
    public var monitoredPeriodDays = 120

    /// A configuration with a fresh random signing key unless one is given.
    public init(signingKey: [UInt8] = SecureRandom.bytes(32)) {
        self.signingKey = signingKey
    }

    /// The signing key derived from a configured shared secret.
    public static func key(fromSecret secret: String) -> [UInt8] {
        HMAC.sha256(key: Array(secret.utf8), message: Array("tacit:operator".utf8))
    }
}
