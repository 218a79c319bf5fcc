import Foundation

/// What a CAMARA access token of the virtual operator stands for: the number of the SIM it
/// was issued for, whether it came out of network-based authentication (the device's
/// cellular path), which Number Verification requires, and until when it may be used.
/// The token itself is a random id in the operator's memory (``OperatorGrants``), spent
/// by the first call that presents it.
struct AccessToken: Sendable, Equatable {
    var simNumber: String
    var network: Bool
    var expires: Date
}
