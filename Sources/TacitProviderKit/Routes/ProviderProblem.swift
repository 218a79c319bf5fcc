import Foundation

/// The API's problems that a provider's routes answer with, so a route mounted from
/// another target answers exactly as the server's own routes do: the server turns each
/// into its problem+json answer (`docs/api.md`'s types), which only it spells.
public enum ProviderProblem: Error, Sendable, Equatable {
    /// The number is not one the API takes; `reason` says why, in words without the number.
    case invalidPhoneNumber(_ reason: String)
    /// The body is not the JSON the route takes; `detail` says what it takes.
    case malformedJSON(_ detail: String)
    /// One field is invalid.
    case invalidParameter(_ name: String, reason: String)
    /// No verification has the id (or it is not the named handset's).
    case notFound
}
