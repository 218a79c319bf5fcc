import Foundation
import TacitCore

/// Small JSON helpers shared by the routes.
public enum JSONText {
    /// Encodes `text` as a JSON string literal.
    public static func string(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An object, keys sorted, written by hand (on hot answers such as a check's, the
    /// state response and webhook bodies).
    public static func object(_ members: [String: JSONValue]) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(.object(members))
        return writer.bytes
    }

    /// `{"events":[…]}` from events' own hand-written JSON.
    public static func events(_ events: [TimelineEvent]) -> [UInt8] {
        var bytes = Array(#"{"events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += event.jsonBytes
        }
        return bytes + Array("]}".utf8)
    }

    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }
}
