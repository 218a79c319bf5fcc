import Foundation
import TacitCore

/// Small JSON helpers shared by the routes.
enum JSONText {
    /// Encodes `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }
}
