import Foundation
import TacitCore

/// The part of a verification that stores keep as one binary record: everything but
/// the phone number (sealed separately) and the columns stores index.
public struct VerificationRecord: Sendable {
    /// The verification's options, as its workflow and settings were kept.
    var options: VerificationOptions
    var workflow: [WorkflowStep]
    var failedAttempts: Int
    var risk: Risk
    var clientTokenHash: [UInt8]
    var endedAt: Date?
    var silentCheck: SilentCheckReference?
    var localeSource: String?
    var lineType: String?
    var sealedTestCode: [UInt8]?
    var geoRefusedChannels: [Channel] = []
    /// Added after the geo-refused channels: what insights read (nil and empty in older records).
    var region: String?
    var numberPrefix: String?
    var acceptedSends: [AcceptedSend] = []
    /// The state's part kept in the record; status and deadline are columns.
    var currentStep: Int?
    var codeHash: [UInt8]?
    var codeStep: Int?

    /// Rebuilds the verification from this record and the indexed columns.
    public func verification(id: String, phoneNumber: String, status: VerificationStatus,
                             deadline: Date?, createdAt: Date, lastSeq: Int) -> Verification {
        let state = VerificationState(status: status, currentStep: currentStep, deadline: deadline,
                                      codeHash: codeHash, codeStep: codeStep)
        var v = Verification(id: id, phoneNumber: phoneNumber, options: options, clientTokenHash: clientTokenHash,
                             createdAt: createdAt, state: state)
        v.workflow = workflow
        v.failedAttempts = failedAttempts
        v.risk = risk
        v.endedAt = endedAt
        v.silentCheck = silentCheck
        v.localeSource = localeSource
        v.lineType = lineType
        v.sealedTestCode = sealedTestCode
        v.geoRefusedChannels = geoRefusedChannels
        v.region = region
        v.numberPrefix = numberPrefix
        v.acceptedSends = acceptedSends
        v.lastSeq = lastSeq
        return v
    }

    /// Format version 1 of the binary record.
    static let version = 1

    public static func encode(_ v: Verification) -> [UInt8] {
        var w = ByteWriter()
        w.int(version)
        w.string(v.brand)
        w.string(v.locale)
        w.optional(v.clientRef) { $0.string($1) }
        w.int(v.codeLength)
        w.int(v.channelTimeout)
        w.optional(v.simSwap) { w, policy in
            w.int(policy.maxAgeHours)
            w.string(policy.action.rawValue)
        }
        w.int(v.workflow.count)
        for step in v.workflow {
            w.string(step.channel.rawValue)
            w.string(step.status.rawValue)
            w.optional(step.startedAt) { $0.double($1.timeIntervalSince1970) }
            w.optional(step.endedAt) { $0.double($1.timeIntervalSince1970) }
            w.optional(step.reason) { $0.string($1) }
        }
        w.optional(v.currentStep) { $0.int($1) }
        w.optional(v.codeHash) { $0.data($1) }
        w.optional(v.codeStep) { $0.int($1) }
        w.int(v.failedAttempts)
        w.optional(v.risk.simSwapped) { $0.bool($1) }
        w.data(v.clientTokenHash)
        w.optional(v.endedAt) { $0.double($1.timeIntervalSince1970) }
        // Added after version 1 was in use: a record that ends before it has none.
        w.optional(v.silentCheck) { w, check in
            w.int(check.step)
            w.string(check.provider)
            w.string(check.reference)
        }
        // Added later still, after the silent check: a record that ends before it has none.
        w.optional(v.localeSource) { $0.string($1) }
        // Added after the locale's source: the SMS Retriever hash a start gave.
        w.optional(v.smsAppHash) { $0.string($1) }
        // Added after the SMS Retriever hash: the line type and a test number's sealed code.
        w.optional(v.lineType) { $0.string($1) }
        w.optional(v.sealedTestCode) { $0.data($1) }
        // Added after the test code: the channels geo permissions refused, by wire name, comma-separated;
        // one byte when there are none, as on almost every verification.
        let refused = v.geoRefusedChannels.map(\.rawValue).joined(separator: ",")
        w.optional(refused.isEmpty ? nil : refused) { $0.string($1) }
        // Added after the geo-refused channels, for insights: a record that ends before it has none,
        // and one with nothing to keep there ends before it too, as records written before it did.
        guard v.region != nil || v.numberPrefix != nil || !v.acceptedSends.isEmpty else { return w.bytes }
        w.optional(v.region) { $0.string($1) }
        w.optional(v.numberPrefix) { $0.string($1) }
        w.int(v.acceptedSends.count)
        for send in v.acceptedSends {
            w.int(send.step)
            w.string(send.channel.rawValue)
            w.string(send.provider)
            w.optional(send.price) { $0.string($1) }
            w.optional(send.currency) { $0.string($1) }
            w.optional(send.priceSource) { $0.string($1.rawValue) }
        }
        // Added after the sends: each one's acceptance time and receipt, in the same order.
        for send in v.acceptedSends {
            w.optional(send.acceptedAt) { $0.double($1.timeIntervalSince1970) }
            w.optional(send.receipt) { $0.string($1.rawValue) }
        }
        // Added after the receipts: the mobile network each send's receipt named, in the same order;
        // left out, as records written before it did, when no receipt named one.
        guard v.acceptedSends.contains(where: { $0.network != nil }) else { return w.bytes }
        for send in v.acceptedSends { w.optional(send.network) { $0.string($1) } }
        return w.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws -> VerificationRecord {
        var r = ByteReader(bytes)
        guard try r.int() == version else { throw ByteReader.Malformed() }
        func date(_ r: inout ByteReader) throws -> Date { Date(timeIntervalSince1970: try r.double()) }
        func parse<T: RawRepresentable<String>>(_ r: inout ByteReader, _: T.Type) throws -> T {
            guard let value = T(rawValue: try r.string()) else { throw ByteReader.Malformed() }
            return value
        }
        let brand = try r.string()
        let locale = try r.string()
        let clientRef = try r.optional { try $0.string() }
        let codeLength = try r.int()
        let channelTimeout = try r.int()
        let simSwap = try r.optional { r in
            SimSwapPolicy(maxAgeHours: try r.int(), action: try parse(&r, SimSwapPolicy.Action.self))
        }
        let count = try r.int()
        guard (0...8).contains(count) else { throw ByteReader.Malformed() }
        var workflow: [WorkflowStep] = []
        for _ in 0..<count {
            workflow.append(WorkflowStep(channel: try parse(&r, Channel.self), status: try parse(&r, StepStatus.self),
                                         startedAt: try r.optional(date), endedAt: try r.optional(date),
                                         endReason: try r.optional { EndReason(rawValue: try $0.string()) }))
        }
        var options = VerificationOptions(workflow: workflow.map(\.channel), codeLength: codeLength,
                                          channelTimeout: channelTimeout, brand: brand, locale: locale,
                                          clientRef: clientRef, simSwap: simSwap)
        let currentStep = try r.optional { try $0.int() }
        let codeHash = try r.optional { try $0.data() }
        let codeStep = try r.optional { try $0.int() }
        let failedAttempts = try r.int()
        let risk = Risk(simSwapped: try r.optional { try $0.bool() })
        let clientTokenHash = try r.data()
        let endedAt = try r.optional(date)
        var silentCheck: SilentCheckReference?
        if !r.isAtEnd {
            silentCheck = try r.optional { r in
                SilentCheckReference(step: try r.int(), provider: try r.string(), reference: try r.string())
            }
        }
        let localeSource = r.isAtEnd ? nil : try r.optional { try $0.string() }
        options.smsAppHash = r.isAtEnd ? nil : try r.optional { try $0.string() }
        let lineType = r.isAtEnd ? nil : try r.optional { try $0.string() }
        let sealedTestCode = r.isAtEnd ? nil : try r.optional { try $0.data() }
        let refused = r.isAtEnd ? nil : try r.optional { try $0.string() }
        let geoRefusedChannels = refused?.split(separator: ",").compactMap { Channel(rawValue: String($0)) } ?? []
        var region: String?, numberPrefix: String?, sends: [AcceptedSend] = []
        if !r.isAtEnd {
            region = try r.optional { try $0.string() }
            numberPrefix = try r.optional { try $0.string() }
            let count = try r.int()
            guard (0...64).contains(count) else { throw ByteReader.Malformed() }
            for _ in 0..<count {
                sends.append(AcceptedSend(step: try r.int(), channel: try parse(&r, Channel.self),
                                          provider: try r.string(), price: try r.optional { try $0.string() },
                                          currency: try r.optional { try $0.string() },
                                          priceSource: try r.optional { r in
                                              try parse(&r, AcceptedSend.PriceSource.self)
                                          }))
            }
            // A record written before acceptance times and receipts ends after its sends.
            if !r.isAtEnd {
                for index in sends.indices {
                    sends[index].acceptedAt = try r.optional { try date(&$0) }
                    sends[index].receipt = try r.optional { r in try parse(&r, AcceptedSend.Receipt.self) }
                }
            }
            if !r.isAtEnd {
                for index in sends.indices { sends[index].network = try r.optional { try $0.string() } }
            }
        }
        return VerificationRecord(options: options, workflow: workflow, failedAttempts: failedAttempts, risk: risk,
                                  clientTokenHash: clientTokenHash, endedAt: endedAt, silentCheck: silentCheck,
                                  localeSource: localeSource, lineType: lineType, sealedTestCode: sealedTestCode,
                                  geoRefusedChannels: geoRefusedChannels, region: region,
                                  numberPrefix: numberPrefix, acceptedSends: sends,
                                  currentStep: currentStep, codeHash: codeHash, codeStep: codeStep)
    }
}
