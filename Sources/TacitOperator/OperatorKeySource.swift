/// Where the operator's signing key comes from: fixed (a configured shared secret, or a
/// key of one process), or a store several instances share, so that a verdict signed by
/// one instance's gateway is verified by any instance.
public protocol OperatorKeySource: Sendable {
    /// The key the gateway signs verdicts with.
    func signingKey() async throws -> [UInt8]
}

/// A key known up front.
public struct FixedOperatorKey: OperatorKeySource {
    public let key: [UInt8]

    public init(_ key: [UInt8]) { self.key = key }

    public func signingKey() async throws -> [UInt8] { key }
}
