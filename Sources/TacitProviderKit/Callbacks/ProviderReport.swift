import Foundation
import TacitCore

/// A verified provider report about one message: what the provider said, normalised.
public struct ProviderReport: Sendable, Equatable {
    /// What the report means for the step.
    public enum Kind: Sendable, Equatable {
        case delivered
        case failed
        /// Progress that changes nothing (queued, sent, ringing…).
        case progress
    }
    /// The provider's route name, as the timeline shows it.
    public var provider: String
    /// The verification and step the report is about; nil when it names none Tacit wrote.
    public var reference: CallbackReference?
    /// The provider's own status word (letters, `-` and `_` only, at most 32 characters).
    public var status: String
    /// What the status means for the step, from the provider's lists.
    public var kind: Kind
    /// The provider's id for the message or call (letters, digits, `-` and `_`, at most 64).
    public var messageId: String?
    /// The provider's error code for a failure (digits only).
    public var errorCode: String?
    /// The mobile network the message went to, as its MCC and MNC together (`23410`), when the
    /// report names one (docs/fraud.md#mobile-networks).
    public var network: String?
    /// What the provider charged for the message, when the report says (see `priced`).
    public private(set) var price: String?
    public private(set) var currency: String?

    /// This report with the price it carries, kept only when both are well formed.
    public func priced(_ price: String?, currency: String?) -> ProviderReport {
        guard let price, let currency, Price.isWellFormed(price), Price.isCurrency(currency) else { return self }
        var copy = self
        copy.price = Price.magnitude(price)
        copy.currency = currency
        return copy
    }

    /// A report whose `status` is one of `failures`, one of `deliveries`, or progress. Values
    /// outside the shapes above are dropped (`status` becomes `unknown`), so nothing a
    /// provider writes reaches the timeline unchecked.
    public init(provider: String, reference: CallbackReference?, status: String, failures: Set<String>,
                deliveries: Set<String>, messageId: String? = nil, errorCode: String? = nil,
                network: String? = nil) {
        self.provider = provider
        self.reference = reference
        self.messageId = messageId.flatMap { id in
            let shaped = id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            return id.count <= 64 && shaped ? id : nil
        }
        self.errorCode = errorCode.flatMap { code in
            (1...8).contains(code.count) && code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber) ? code : nil
        }
        self.network = network.flatMap(MobileNetwork.code)
        let word = status.lowercased()
        let shaped = word.count <= 32 && word.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") })
        self.status = shaped ? word : "unknown"
        kind = failures.contains(self.status) ? .failed : deliveries.contains(self.status) ? .delivered : .progress
    }
}
