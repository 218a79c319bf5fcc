import Foundation
import TacitCore
import TacitHTTP

extension ProviderRoute {
    /// The route's handler with the ``ProviderProblem``s it throws turned into the API's own,
    /// so a mounted route answers exactly as the server's routes do.
    var answeringProblems: Handler {
        let handler = self.handler
        return { request in
            do { return try await handler(request) } catch let problem as ProviderProblem { throw APIProblem(problem) }
        }
    }
}

extension APIProblem {
    init(_ problem: ProviderProblem) {
        switch problem {
        case .invalidPhoneNumber(let reason): self = .invalidPhoneNumber(reason)
        case .malformedJSON(let detail): self = .malformedJSON(detail)
        case .invalidParameter(let name, let reason): self = .invalid([InvalidParameter(name: name, reason: reason)])
        case .notFound: self = .notFound
        }
    }
}
