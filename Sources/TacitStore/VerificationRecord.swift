import Foundation
import TacitCore

/// The part of a verification that stores keep as one JSON document: everything but
/// the phone number (sealed separately) and the columns stores index.
public struct VerificationRecord: Codable, Sendable {
    var brand: String
    var locale: String
    var clientRef: String?
    var codeLength: Int
    var channelTimeout: Int
    var simSwap: SimSwapPolicy?
    var workflow: [WorkflowStep]
    var currentStep: Int?
    var codeHash: [UInt8]?
    var codeStep: Int?
    var failedAttempts: Int
    var risk: Risk
    var clientTokenHash: [UInt8]
    var endedAt: Date?

    public init(_ v: Verification) {
        brand = v.brand
        locale = v.locale
        clientRef = v.clientRef
        codeLength = v.codeLength
        channelTimeout = v.channelTimeout
        simSwap = v.simSwap
        workflow = v.workflow
        currentStep = v.currentStep
        codeHash = v.codeHash
        codeStep = v.codeStep
        failedAttempts = v.failedAttempts
        risk = v.risk
        clientTokenHash = v.clientTokenHash
        endedAt = v.endedAt
    }

    /// Rebuilds the verification from this record and the indexed columns.
    public func verification(id: String, phoneNumber: String, status: VerificationStatus,
                             deadline: Date?, createdAt: Date, lastSeq: Int) -> Verification {
        let options = VerificationOptions(workflow: workflow.map(\.channel), codeLength: codeLength, channelTimeout: channelTimeout,
                                          brand: brand, locale: locale, clientRef: clientRef, simSwap: simSwap)
        var v = Verification(id: id, phoneNumber: phoneNumber, options: options, clientTokenHash: clientTokenHash, createdAt: createdAt)
        v.workflow = workflow
        v.status = status
        v.currentStep = currentStep
        v.deadline = deadline
        v.codeHash = codeHash
        v.codeStep = codeStep
        v.failedAttempts = failedAttempts
        v.risk = risk
        v.endedAt = endedAt
        v.lastSeq = lastSeq
        return v
    }

    public static func encode(_ v: Verification) -> [UInt8] {
        (try? Array(JSONEncoder().encode(VerificationRecord(v)))) ?? []
    }

    public static func decode(_ bytes: [UInt8]) throws -> VerificationRecord {
        try JSONDecoder().decode(VerificationRecord.self, from: Data(bytes))
    }
}
