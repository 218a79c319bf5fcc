import Foundation
import TacitCore
import TacitServer

/// Reads the members of a Vonage JSON object, collecting every problem by Vonage's
/// field name. Unlike `/v1`, unknown members are let through, as Vonage's API does, so
/// a body an app already sends with fields Tacit has no use for still works.
struct VonageFields {
    let fields: [String: JSONValue]
    /// What names the object's members in a problem: "" at the top, `workflow[0].` in a step.
    let prefix: String
    private(set) var problems: [InvalidParameter]

    init(_ fields: [String: JSONValue], prefix: String = "", problems: [InvalidParameter] = []) {
        self.fields = fields
        self.prefix = prefix
        self.problems = problems
    }

    mutating func problem(_ name: String, _ reason: String) {
        problems.append(InvalidParameter(name: prefix + name, reason: reason))
    }

    mutating func string(_ name: String, required: Bool = false) -> String? {
        switch fields[name] {
        case .string(let text)?: return text
        case nil, .null?:
            if required { problem(name, "is required") }
            return nil
        default:
            problem(name, "must be a string")
            return nil
        }
    }

    mutating func int(_ name: String, in range: ClosedRange<Int>) -> Int? {
        switch fields[name] {
        case nil, .null?: return nil
        case .number(let number)? where number.rounded() == number && abs(number) < 1e9 && range.contains(Int(number)):
            return Int(number)
        default:
            problem(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
    }

    mutating func bool(_ name: String) -> Bool? {
        switch fields[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default:
            problem(name, "must be true or false")
            return nil
        }
    }
}
