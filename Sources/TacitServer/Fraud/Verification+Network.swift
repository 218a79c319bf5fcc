import TacitCore

extension Verification {
    /// The mobile network a receipt last named for one of its messages (MCC and MNC), if any: the
    /// network its conversion counts for (docs/fraud.md#mobile-networks).
    var reportedNetwork: String? {
        acceptedSends.last { $0.network != nil }?.network
    }
}
