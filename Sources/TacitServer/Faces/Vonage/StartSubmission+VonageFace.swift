import Foundation
import TacitPhone

extension StartSubmission {
    /// A start through the Vonage face, which reads and validates its own body: the start
    /// guard needs only the number, when the body names one that parses.
    init(vonageNumber number: PhoneNumber?) {
        // Never read: a face answers with its own validation, not with `validated()`.
        request = .failure(.unavailable)
        self.number = number.map { .success($0) }
    }
}
