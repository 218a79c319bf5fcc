import Foundation
import TacitCore

/// A validated device event body: `{"label":"device:<name>","outcome":…,"note":…,"data":{…}}`.
/// Everything in it is what a device typed, so it reaches the store only through the
/// redactor, as scrubbed text.
struct DeviceEventInput {
    static let maxNote = 500
    static let maxDataBytes = 4_096
    static let maxNameLength = 48

    var label: String
    var outcome: EventOutcome
    var note: String?
    var data: [String: EventValue] = [:]

    init(body: [UInt8]) throws(APIProblem) {
        var json = try JSONRequest(body: body)
        let label = json.string("label", required: true)
        let outcome = json.string("outcome")
        let note = json.string("note")
        let data = json.object("data")
        if let label, !Self.isValidLabel(label) {
            json.problem("label", "must be device: followed by 1 to 48 of a-z, 0-9 and _")
        }
        let parsedOutcome = outcome.map { EventOutcome(rawValue: $0) } ?? .info
        if parsedOutcome == nil { json.problem("outcome", "must be info, success or failure") }
        if let note, note.count > Self.maxNote { json.problem("note", "must be at most \(Self.maxNote) characters") }
        var values: [String: EventValue] = [:]
        if let data { values = Self.values(data, problems: &json) }
        try json.finish()
        self.label = label ?? ""
        self.outcome = parsedOutcome ?? .info
        self.note = note
        self.data = values
    }

    /// The draft to store, on the channel the workflow is on now. What the device typed
    /// is scrubbed against what its verification issued first: the store's generic
    /// scrub can't tell that `616 420` is the code.
    func draft(channel: Channel?, issued: IssuedSecrets) -> EventDraft {
        let name = label.dropFirst("device:".count).replacingOccurrences(of: "_", with: " ")
        let typed = data.mapValues { value in
            if case .text(let text) = value { return EventValue.text(Redactor.scrub(text, issued: issued)) }
            return value
        }
        return EventDraft(label, channel: channel, source: .device, outcome: outcome,
                          note: note.map { Redactor.scrub($0, issued: issued) } ?? "The device reported: \(name).",
                          data: typed)
    }

    static func isValidLabel(_ label: String) -> Bool {
        guard label.hasPrefix("device:") else { return false }
        let name = label.dropFirst("device:".count)
        return (1...maxNameLength).contains(name.count)
            && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }

    /// Flat values only. Numbers long enough to be a code or a phone number become
    /// text so the redactor scrubs them like any other typed digits.
    private static func values(_ data: [String: JSONValue], problems json: inout JSONRequest) -> [String: EventValue] {
        if JSONText.encode(data).count > maxDataBytes {
            json.problem("data", "must be at most \(maxDataBytes) bytes of JSON")
            return [:]
        }
        var values: [String: EventValue] = [:]
        for (key, value) in data {
            guard isValidKey(key) else {
                json.problem("data", "keys must be 1 to 48 of a-z and _")
                return [:]
            }
            switch value {
            case .string(let text): values[key] = .text(text)
            case .bool(let flag): values[key] = .bool(flag)
            case .null: values[key] = .null
            case .number(let number):
                values[key] = number.rounded() == number && abs(number) < 1_000
                    ? .int(Int(number))
                    : .text(digits(number))
            case .object, .array:
                json.problem("data", "values must be strings, numbers, booleans or null")
                return [:]
            }
        }
        return values
    }

    private static func digits(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e18 ? String(Int64(number)) : String(number)
    }

    /// Keys carry no digits, so nothing secret can hide in one (the redactor scrubs values, not keys).
    private static func isValidKey(_ key: String) -> Bool {
        (1...maxNameLength).contains(key.count) && key.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_") }
    }
}
