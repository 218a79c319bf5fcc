import Foundation

/// A delivery receipt that reached Tacit over a provider's own connection rather than an
/// HTTP callback (a `deliver_sm` on an SMSC session), already matched to the message it reports by the
/// provider target. It takes the same path into the engine as a verified HTTP callback.
public struct ProviderReceipt: Sendable, Equatable {
    /// What the receipt says of the message.
    public enum Outcome: Sendable, Equatable {
        case delivered
        /// Final and not delivered: the step fails over at once.
        case failed
        /// Progress that changes nothing (en route, accepted, unknown).
        case progress
    }

    /// The provider's route name.
    public var provider: String
    /// The verification the message was sent for.
    public var verificationId: String
    /// The step the message was sent for.
    public var step: Int
    /// The provider's own status word (`delivrd`, `undeliv`…), lower-cased on the timeline.
    public var status: String
    /// What the status means for the step.
    public var outcome: Outcome
    /// The provider's id for the message.
    public var messageId: String?
    /// The provider's error code for a failure (digits only).
    public var errorCode: String?
    /// The mobile network the message went to (MCC and MNC, `23410`), when the receipt names
    /// one; anything but 5 or 6 digits is dropped by its report.
    public var network: String?

    /// A receipt about step `step` of verification `verificationId`.
    public init(provider: String, verificationId: String, step: Int, status: String, outcome: Outcome,
                messageId: String? = nil, errorCode: String? = nil, network: String? = nil) {
        self.network = network
        self.provider = provider
        self.verificationId = verificationId
        self.step = step
        self.status = status
        self.outcome = outcome
        self.messageId = messageId
        self.errorCode = errorCode
    }

    /// The report a verified HTTP callback would make of the same receipt.
    public var report: ProviderReport {
        let word = status.lowercased()
        return ProviderReport(provider: provider,
                              reference: CallbackReference(verificationId: verificationId, step: step),
                              status: word, failures: outcome == .failed ? [word] : [],
                              deliveries: outcome == .delivered ? [word] : [],
                              messageId: messageId, errorCode: errorCode, network: network)
    }
}

/// Where a provider hands the receipts it reads: into the engine, as a verified callback's
/// report is fed. A receipt for a step that is no longer active changes nothing.
public struct ProviderReceiptSink: Sendable {
    let apply: @Sendable (ProviderReceipt) async -> Void

    /// A sink that hands each receipt to `apply` (the server's engine, a test's recorder).
    public init(_ apply: @escaping @Sendable (ProviderReceipt) async -> Void) {
        self.apply = apply
    }

    /// Hands `receipt` on, returning once it has been applied.
    public func deliver(_ receipt: ProviderReceipt) async {
        await apply(receipt)
    }
}

/// A provider that reads receipts over a connection of its own. The application runs each
/// one for its whole life, beside its other workers, and stops it by cancellation.
public protocol ProviderReceiptSource: Sendable {
    /// Reads receipts into `receipts` until cancelled.
    func run(receipts: ProviderReceiptSink) async
}
