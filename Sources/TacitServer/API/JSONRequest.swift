import Foundation
import TacitCore

/// Reads a JSON object request body field by field, collecting every problem so the
/// caller gets them all in one `invalid_parameters` list. Unknown fields are refused.
struct JSONRequest {
    private let object: [String: JSONValue]
    private(set) var problems: [InvalidParameter] = []
    private var read: Set<String> = []

    init(body: [UInt8]) throws(APIProblem) {
        guard !body.isEmpty else { throw .malformedJSON("The request body is empty; send a JSON object.") }
        let value: JSONValue
        do { value = try JSONParser.parse(body) } catch { throw .malformedJSON() }
        guard case .object(let object) = value else { throw .malformedJSON("The request body must be a JSON object.") }
        self.object = object
    }

    mutating func string(_ name: String, required: Bool = false) -> String? {
        guard let value = take(name, required: required) else { return nil }
        guard case .string(let text) = value else { return typeProblem(name, "must be a string") }
        return text
    }

    mutating func int(_ name: String) -> Int? {
        guard let value = take(name, required: false) else { return nil }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 1e9 else {
            return typeProblem(name, "must be an integer")
        }
        return Int(number)
    }

    mutating func array(_ name: String) -> [JSONValue]? {
        guard let value = take(name, required: false) else { return nil }
        guard case .array(let items) = value else { return typeProblem(name, "must be an array") }
        return items
    }

    mutating func object(_ name: String) -> [String: JSONValue]? {
        guard let value = take(name, required: false) else { return nil }
        guard case .object(let fields) = value else { return typeProblem(name, "must be an object") }
        return fields
    }

    /// A string member's value without reading it (it is still unknown to `finish`), for
    /// a caller that looks ahead of the full read.
    func peekString(_ name: String) -> String? {
        guard case .string(let text)? = object[name] else { return nil }
        return text
    }

    mutating func problem(_ name: String, _ reason: String) {
        problems.append(InvalidParameter(name: name, reason: reason))
    }

    /// Throws every problem found, including fields nobody asked for.
    func finish() throws(APIProblem) {
        let unknown = object.keys.filter { !read.contains($0) }.sorted()
        let all = problems + unknown.map { InvalidParameter(name: $0, reason: "is not a known field") }
        if !all.isEmpty { throw .invalid(all) }
    }

    private mutating func take(_ name: String, required: Bool) -> JSONValue? {
        read.insert(name)
        guard let value = object[name], value != .null else {
            if required { problem(name, "is required") }
            return nil
        }
        return value
    }

    private mutating func typeProblem<T>(_ name: String, _ reason: String) -> T? {
        problem(name, reason)
        return nil
    }
}
