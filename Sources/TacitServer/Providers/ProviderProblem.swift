import Foundation
import TacitCore

/// The API's problems that a provider's routes answer with, so a route mounted from
/// another target answers exactly as the server's own routes do.
public enum ProviderProblem {
    public static func invalidPhoneNumber(_ reason: String) -> APIProblem { .invalidPhoneNumber(reason) }
    public static func malformedJSON(_ detail: String) -> APIProblem { .malformedJSON(detail) }
    public static func invalidParameter(_ name: String, reason: String) -> APIProblem {
        .invalid([InvalidParameter(name: name, reason: reason)])
    }
    /// No verification has the id (or it is not the named handset's).
    public static var notFound: APIProblem { .notFound }
}
