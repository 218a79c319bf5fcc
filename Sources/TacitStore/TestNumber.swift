import Foundation

/// A number an application verifies without sending anything (docs/fraud.md#test-numbers):
/// for App Store review and CI, its starts take a fixed code.
public struct TestNumber: Sendable, Equatable {
    public var applicationId: String
    /// E.164.
    public var phoneNumber: String
    /// The fixed code, sealed with the server's keys: never kept in clear.
    public var sealedCode: [UInt8]
    /// After this the number is an ordinary one again; nil for never.
    public var expiresAt: Date?
    public var createdAt: Date

    public init(applicationId: String, phoneNumber: String, sealedCode: [UInt8], expiresAt: Date? = nil,
                createdAt: Date) {
        self.applicationId = applicationId
        self.phoneNumber = phoneNumber
        self.sealedCode = sealedCode
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    /// Whether starts for the number at `now` are test starts.
    public func isActive(at now: Date) -> Bool {
        expiresAt.map { now < $0 } ?? true
    }
}
