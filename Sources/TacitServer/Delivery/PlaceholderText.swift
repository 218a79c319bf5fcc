import TacitCore

/// A message text split once, when it is read, at its `{{placeholders}}`: writing a
/// message appends the pieces and the values (a value is never searched again, so a
/// brand can't turn into a placeholder), and an SMS's alphabet and parts are known from
/// the values' lengths without writing it.
public struct PlaceholderText: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    let pieces: [Piece]
    /// The length of the words around the placeholders.
    let fixedLength: SMSEncoding.Length

    /// The placeholders' names, in order of first use.
    public var placeholders: [String] {
        var names: [String] = []
        for case .placeholder(let name) in pieces where !names.contains(name) { names.append(name) }
        return names
    }

    /// A name is lowercase letters and underscores; `{{` before anything else is text.
    public init(_ text: String) {
        var pieces: [Piece] = []
        var literal = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "{{") {
            literal += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            if let close = after.firstRange(of: "}}"), case let name = after[..<close.lowerBound], !name.isEmpty,
               name.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) }) {
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                pieces.append(.placeholder(String(name)))
                rest = after[close.upperBound...]
            } else {
                literal += "{{"
                rest = after
            }
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
        fixedLength = pieces.reduce(.zero) { length, piece in
            guard case .text(let words) = piece else { return length }
            return length + SMSEncoding.Length(words)
        }
    }

    /// The text with each placeholder replaced by its value; a placeholder without one stays as written.
    public func render(_ values: [String: String]) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let words): text += words
            case .placeholder(let name): text += values[name] ?? "{{\(name)}}"
            }
        }
        return text
    }

    /// How `render(values)` travels as an SMS, from the values' lengths alone.
    public func smsEncoding(_ values: [String: String]) -> SMSEncoding {
        var length = fixedLength
        for case .placeholder(let name) in pieces {
            length = length + SMSEncoding.Length(values[name] ?? "{{\(name)}}")
        }
        return SMSEncoding(length)
    }
}
