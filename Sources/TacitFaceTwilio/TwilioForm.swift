import Foundation
import TacitServer

/// An `application/x-www-form-urlencoded` body, as Twilio's SDKs send every request:
/// PascalCase names, `+` for a space, UTF-8 percent escapes. A body that is not such a
/// form (a bad escape, invalid UTF-8, a pair with no name) is refused whole, so a typo
/// never turns into a silently missing parameter.
struct TwilioForm: Sendable, Equatable {
    /// The pairs in the order they came; a name may repeat (Twilio's list parameters).
    private(set) var pairs: [(name: String, value: String)]

    static let maximumBytes = 16 * 1024

    init?(body: [UInt8]) {
        guard body.count <= Self.maximumBytes, let text = String(validating: body, as: UTF8.self) else { return nil }
        var pairs: [(String, String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty,
                  let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The first value given for `name`, if any.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The names given that are not in `known`, in order: Twilio ignores parameters it
    /// doesn't take, and so does the face, but a test can see them.
    func unknownNames(_ known: Set<String>) -> [String] {
        pairs.map(\.name).filter { !known.contains($0) }
    }

    private static func decode(_ text: Substring) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard spaced.contains("%") else { return spaced }
        return spaced.removingPercentEncoding
    }

    static func == (lhs: TwilioForm, rhs: TwilioForm) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}
