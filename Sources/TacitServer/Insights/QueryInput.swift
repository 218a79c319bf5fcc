import Foundation
import TacitCore

/// Reads a GET route's query parameters, gathering every bad or unknown one, so a single
/// 400 names them all (docs/api.md#insights).
struct QueryInput {
    private var remaining: [String: String]
    private var invalid: [InvalidParameter] = []

    init(_ query: [String: String]) {
        remaining = query
    }

    /// The parameter `name` as `read` makes it; nil when absent, or when `read` refuses it
    /// (then it is reported with `reason`).
    mutating func value<T>(_ name: String, _ reason: String, _ read: (String) -> T?) -> T? {
        guard let text = remaining.removeValue(forKey: name) else { return nil }
        guard let value = read(text) else {
            invalid.append(InvalidParameter(name: name, reason: reason))
            return nil
        }
        return value
    }

    /// Like `value`, but a missing parameter is reported too.
    mutating func required<T>(_ name: String, _ reason: String, _ read: (String) -> T?) -> T? {
        guard remaining[name] != nil else {
            invalid.append(InvalidParameter(name: name, reason: "is required"))
            return nil
        }
        return value(name, reason, read)
    }

    /// Throws the 400 naming every bad parameter and every one the route does not take.
    mutating func finish() throws {
        for name in remaining.keys.sorted() {
            invalid.append(InvalidParameter(name: name, reason: "is not a parameter of this route"))
        }
        guard invalid.isEmpty else { throw Self.problem(invalid) }
    }

    static func problem(_ parameters: [InvalidParameter]) -> APIProblem {
        var problem = APIProblem.invalid(parameters)
        problem.status = 400
        return problem
    }
}
