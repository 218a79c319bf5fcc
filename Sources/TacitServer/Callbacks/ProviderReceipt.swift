import Foundation
import TacitStore

/// A delivery receipt that reached Tacit over a provider's own connection rather than an
/// HTTP callback (an SMPP `deliver_sm`), already matched to the message it reports by the
/// provider target. It takes the same path into the engine as a verified HTTP callback.
public struct ProviderReceipt: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case delivered
        /// Final and not delivered: the step fails over at once.
        case failed
        /// Progress that changes nothing (en route, accepted, unknown).
        case progress
    }

    public var provider: String
    public var verificationId: String
    public var step: Int
    /// The provider's own status word (`delivrd`, `undeliv`…), lower-cased on the timeline.
    public var status: String
    public var outcome: Outcome
    public var messageId: String?
    /// The provider's error code for a failure (digits only).
    public var errorCode: String?

    public init(provider: String, verificationId: String, step: Int, status: String, outcome: Outcome,
                messageId: String? = nil, errorCode: String? = nil) {
        self.provider = provider
        self.verificationId = verificationId
        self.step = step
        self.status = status
        self.outcome = outcome
        self.messageId = messageId
        self.errorCode = errorCode
    }

    /// The report a verified HTTP callback would make of the same receipt.
    var report: ProviderReport {
        let word = status.lowercased()
        return ProviderReport(provider: provider, reference: CallbackReference(verificationId: verificationId, step: step),
                              status: word, failures: outcome == .failed ? [word] : [],
                              deliveries: outcome == .delivered ? [word] : [], messageId: messageId, errorCode: errorCode)
    }
}

/// Where a provider hands the receipts it reads: into the engine, as `CallbackRoutes.apply`
/// feeds a verified callback. A receipt for a step that is no longer active changes nothing.
public struct ProviderReceiptSink: Sendable {
    let apply: @Sendable (ProviderReceipt) async -> Void

    public init(_ apply: @escaping @Sendable (ProviderReceipt) async -> Void) {
        self.apply = apply
    }

    public func deliver(_ receipt: ProviderReceipt) async {
        await apply(receipt)
    }

    /// The engine's sink: the callback routes' `apply`, which needs neither their secrets nor the URL.
    init(runner: WorkflowRunner, store: any VerificationStore) {
        let routes = CallbackRoutes(runner: runner, store: store, settings: CallbackSettings(), baseURL: { "" })
        self.init { receipt in try? await routes.apply(receipt.report) }
    }
}

/// A provider that reads receipts over a connection of its own. The application runs each
/// one for its whole life, beside its other workers, and stops it by cancellation.
public protocol ProviderReceiptSource: Sendable {
    func run(receipts: ProviderReceiptSink) async
}
